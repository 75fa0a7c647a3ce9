package dev.lipa.dispatcher.delivery;

import java.time.Clock;
import java.util.Random;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the delivery machinery from {@link DispatcherProperties}. */
@Configuration(proxyBeanMethods = false)
class DeliveryConfiguration {

  @Bean
  RetrySchedule retrySchedule(DispatcherProperties properties) {
    return new RetrySchedule(properties.retryDelays(), properties.jitter(), new Random());
  }

  @Bean
  CallbackSender callbackSender(DispatcherProperties properties, ObjectProvider<CallbackSigner> signer) {
    return new CallbackSender(CallbackSender.httpClient(properties.connectTimeout()),
        signer.getIfAvailable(CallbackSigner::unsigned), properties.requestTimeout(),
        properties.responseSnippetBytes());
  }

  @Bean
  DeliveryDispatcher deliveryDispatcher(DeliveryStore store, CallbackSender sender, RetrySchedule schedule,
      Clock clock, DispatcherProperties properties) {
    return new DeliveryDispatcher(store, sender, schedule, new AttemptSlots(properties.maxConcurrentAttempts()),
        clock, properties);
  }

  @Bean
  DeliveryPoller deliveryPoller(DeliveryDispatcher dispatcher, DispatcherProperties properties) {
    return new DeliveryPoller(dispatcher, properties);
  }
}
