package dev.lipa.common.outbox;

import dev.lipa.common.tracing.TraceContexts;
import dev.lipa.common.tracing.TracingAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The outbox of every service that publishes events: {@link Outboxes} on one producer built from
 * {@code spring.kafka.producer.*} (the services set it idempotent, acks=all, with String serializers) and the
 * settings the service binds under its own prefix ({@link OutboxSettings.Source}). A service without such settings
 * (the gateway, the dispatcher) gets nothing. With Micrometer, every outbox has its gauges ({@link OutboxGauges}).
 */
@AutoConfiguration(after = TracingAutoConfiguration.class,
    afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass(name = {"com.mongodb.client.MongoCollection", "org.springframework.kafka.core.ProducerFactory"})
@ConditionalOnBean(OutboxSettings.Source.class)
public class OutboxAutoConfiguration {

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @SuppressWarnings("unchecked")
  Outboxes outboxes(ProducerFactory<?, ?> producers, OutboxSettings.Source settings, ObjectProvider<Clock> clock,
      ObjectProvider<TraceContexts> tracing) {
    return new Outboxes((Producer<String, String>) producers.createProducer(), settings.outbox(),
        clock.getIfAvailable(Clock::systemUTC), tracing.getIfAvailable(() -> TraceContexts.NONE));
  }

  /** The outboxes' gauges, when the service has Micrometer (every service with actuator does). */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
  static class Metrics {

    @Bean
    OutboxGauges outboxGauges(Outboxes outboxes, ObjectProvider<MeterRegistry> registry,
        ObjectProvider<Clock> clock) {
      OutboxGauges gauges = new OutboxGauges(registry.getIfAvailable(SimpleMeterRegistry::new),
          clock.getIfAvailable(Clock::systemUTC));
      outboxes.onEachOutbox(gauges::register);
      return gauges;
    }
  }
}
