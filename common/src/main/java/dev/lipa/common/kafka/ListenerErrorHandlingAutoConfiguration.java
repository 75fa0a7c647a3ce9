package dev.lipa.common.kafka;

import com.mongodb.client.MongoClient;
import dev.lipa.common.metrics.CachedReading;
import dev.lipa.common.servlet.ServletServiceAutoConfiguration;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * No event is dropped silently: every Kafka listener container of a service gets the platform's
 * {@link ListenerErrorHandler} (retry without limit, paused, for infrastructure failures; the consumer's dead letters
 * for records it can never process), and operators get {@code /admin/v1/dead-letters} to see and replay them.
 *
 * <p>The handler is set on <b>every</b> listener container factory bean (a bean post-processor), Boot's default one and
 * any a service declares (a batch factory, say), replacing whatever handler the factory set itself: a new listener is
 * covered without a line of configuration. Dead letters live in the service's own database
 * ({@value DeadLetterStore#COLLECTION}).
 */
@AutoConfiguration(
    after = ServletServiceAutoConfiguration.class,
    afterName = {
        "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
        "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration"})
@ConditionalOnClass(name = {"com.mongodb.client.MongoClient",
    "org.springframework.kafka.listener.DefaultErrorHandler"})
@ConditionalOnBean(type = {"com.mongodb.client.MongoClient", "org.springframework.kafka.core.KafkaTemplate"})
@EnableConfigurationProperties(ListenerRetrySettings.class)
public class ListenerErrorHandlingAutoConfiguration {

  private static final Logger log = LoggerFactory.getLogger(ListenerErrorHandlingAutoConfiguration.class);

  @Bean
  @ConditionalOnMissingBean
  DeadLetterStore deadLetterStore(MongoClient client, @Value("${spring.mongodb.database}") String database) {
    return new DeadLetterStore(client.getDatabase(database).getCollection(DeadLetterStore.COLLECTION));
  }

  @Bean
  @ConditionalOnMissingBean
  ListenerMeter listenerMeter() {
    return ListenerMeter.NONE;
  }

  @Bean(destroyMethod = "close")
  ListenerPauses listenerPauses() {
    return new ListenerPauses();
  }

  @Bean
  @ConditionalOnMissingBean
  ListenerErrorHandler listenerErrorHandler(ListenerRetrySettings settings, DeadLetterStore store,
      KafkaTemplate<?, ?> kafka, ListenerMeter meter, ListenerPauses pauses, ObjectProvider<Clock> clock) {
    Clock time = clock.getIfAvailable(Clock::systemUTC);
    return new ListenerErrorHandler(new DeadLetterRecoverer(store, kafka, meter, time), settings.backOff(),
        pauses.handler(), new ListenerAlerts(settings, meter));
  }

  /** Puts the platform's handler on every listener container factory, whoever declared it. */
  @Bean
  static BeanPostProcessor listenerErrorHandlerOnEveryContainerFactory(ObjectProvider<ListenerErrorHandler> handler) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof AbstractKafkaListenerContainerFactory<?, ?, ?> factory) {
          factory.setCommonErrorHandler(handler.getObject());
          log.debug("listener container factory {} has the platform's error handler", beanName);
        }
        return bean;
      }
    };
  }

  @Bean
  @ConditionalOnMissingBean
  DeadLetterReplayer deadLetterReplayer(DeadLetterStore store, KafkaListenerEndpointRegistry registry,
      ObjectProvider<Clock> clock) {
    return new DeadLetterReplayer(store, registry, clock.getIfAvailable(Clock::systemUTC));
  }

  /** The failure counters, when the service has Micrometer (every service with actuator does). */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
  static class Metrics {

    static final String DEAD_LETTERS_WAITING = "lipa.dead.letters.waiting";

    @Bean
    @ConditionalOnMissingBean
    ListenerMeter listenerMeter(ObjectProvider<MeterRegistry> registry) {
      MeterRegistry meters = registry.getIfAvailable();
      return meters == null ? ListenerMeter.NONE : new MicrometerListenerMeter(meters);
    }

    /**
     * {@value #DEAD_LETTERS_WAITING}: the dead letters an operator has not replayed yet, in the store (so it exists at
     * 0 before the first dead letter, and holds after a restart), read at most every 10 s.
     */
    @Bean
    Gauge deadLettersWaiting(ObjectProvider<MeterRegistry> registry, DeadLetterStore store,
        ObjectProvider<Clock> clock) {
      CachedReading waiting = new CachedReading(DEAD_LETTERS_WAITING, () -> store.countDead(100_000),
          Duration.ofSeconds(10), clock.getIfAvailable(Clock::systemUTC));
      return Gauge.builder(DEAD_LETTERS_WAITING, waiting, CachedReading::value)
          .description("Dead letters of this service's consumers not replayed yet").strongReference(true)
          .register(registry.getIfAvailable(SimpleMeterRegistry::new));
    }
  }

  /**
   * {@code /admin/v1/dead-letters}, behind the operator token like every {@code /admin/**} (common's servlet
   * auto-configuration puts the operator filter in front of every servlet service).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  @Import(DeadLetterController.class)
  static class AdminApi {
  }
}
