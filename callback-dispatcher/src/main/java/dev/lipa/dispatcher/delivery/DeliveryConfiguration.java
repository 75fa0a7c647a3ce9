package dev.lipa.dispatcher.delivery;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.tracing.TraceContexts;
import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.callbacks.PortSet;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the delivery machinery from {@link DispatcherProperties}. */
@Configuration(proxyBeanMethods = false)
class DeliveryConfiguration {

  private static final Logger log = LoggerFactory.getLogger(DeliveryConfiguration.class);

  @Bean
  RetrySchedule retrySchedule(DispatcherProperties properties) {
    return new RetrySchedule(properties.retryDelays(), properties.jitter(), properties.retryAfterCap(), new Random());
  }

  /**
   * The SSRF guard. {@code lipa.callbacks.allow-private-targets=true} (the sandbox and the local platform) lets
   * callbacks reach loopback and private networks; a live dispatcher ignores it and delivers to public https URLs
   * only.
   */
  @Bean
  CallbackUrlGuard callbackUrlGuard(@Value("${" + CallbackUrlGuard.ALLOW_PRIVATE_TARGETS + ":false}") boolean allow,
      @Value("${" + CallbackUrlGuard.PLATFORM_PORTS + ":" + CallbackUrlGuard.DEFAULT_PLATFORM_PORTS + "}")
      String platformPorts, StackEnvironment stack) {
    if (stack.isLive()) {
      if (allow) {
        log.warn("{}=true is ignored in live: callbacks go to public https addresses only",
            CallbackUrlGuard.ALLOW_PRIVATE_TARGETS);
      }
      return CallbackUrlGuard.of(stack, false, PortSet.parse(platformPorts));
    }
    if (allow) {
      log.warn("{}=true: callbacks may reach loopback and private addresses except the platform's own ports {} "
          + "(never do this in live)", CallbackUrlGuard.ALLOW_PRIVATE_TARGETS, platformPorts);
    }
    return CallbackUrlGuard.of(stack, allow, PortSet.parse(platformPorts));
  }

  @Bean(destroyMethod = "shutdownNow")
  ScheduledExecutorService callbackDeadlines() {
    return Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("callback-deadlines").daemon()
        .factory());
  }

  @Bean
  CallbackSender callbackSender(DispatcherProperties properties, CallbackUrlGuard guard,
      ObjectProvider<CallbackSigner> signer, Clock clock, ScheduledExecutorService callbackDeadlines,
      ObjectProvider<TraceContexts> tracing) {
    return new CallbackSender(
        GuardedHttpClient.create(guard, properties.connectTimeout(), properties.requestTimeout(),
            properties.maxConcurrentAttempts(), properties.perHostConcurrency()),
        guard, signer.getIfAvailable(CallbackSigner::unsigned), properties.requestTimeout(),
        properties.responseSnippetBytes(), clock, callbackDeadlines, tracing.getIfAvailable(() -> TraceContexts.NONE));
  }

  @Bean
  CallbackMetrics callbackMetrics(ObjectProvider<MeterRegistry> registry) {
    return new CallbackMetrics(registry.getIfAvailable(SimpleMeterRegistry::new));
  }

  /** The dispatcher with its admission and attempts, which it alone uses and closes (in that order). */
  @Bean
  DeliveryDispatcher deliveryDispatcher(DeliveryStore store, DeliveryQueueStore queue, CallbackSender sender,
      RetrySchedule schedule, DisabledEndpoints disabledEndpoints, Clock clock, DispatcherProperties properties,
      CallbackMetrics metrics) {
    HostGate gate = new HostGate(properties.perHostConcurrency(), properties.hostPermitWait(),
        HostGate.breakerConfig(properties));
    Admission admission = new Admission(new AttemptSlots(properties.maxConcurrentAttempts()), gate,
        properties.hostPermitWait());
    Attempts attempts = new Attempts(queue, sender, schedule, admission, gate, disabledEndpoints, clock,
        properties.deferDelay(), metrics);
    return new DeliveryDispatcher(store, queue, admission, attempts, disabledEndpoints, clock, properties);
  }

  @Bean
  DeliveryPoller deliveryPoller(DeliveryDispatcher dispatcher, DispatcherProperties properties) {
    return new DeliveryPoller(dispatcher, properties);
  }
}
