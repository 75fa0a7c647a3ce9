package dev.lipa.common.outbox;

import java.time.Clock;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The outbox of every service that publishes events: {@link Outboxes} on one producer built from
 * {@code spring.kafka.producer.*} (the services set it idempotent, acks=all, with String serializers) and the
 * settings the service binds under its own prefix ({@link OutboxSettings.Source}). A service without such settings
 * (the gateway, the dispatcher) gets nothing.
 */
@AutoConfiguration(afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass(name = {"com.mongodb.client.MongoCollection", "org.springframework.kafka.core.ProducerFactory"})
@ConditionalOnBean(OutboxSettings.Source.class)
public class OutboxAutoConfiguration {

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @SuppressWarnings("unchecked")
  Outboxes outboxes(ProducerFactory<?, ?> producers, OutboxSettings.Source settings, ObjectProvider<Clock> clock) {
    return new Outboxes((Producer<String, String>) producers.createProducer(), settings.outbox(),
        clock.getIfAvailable(Clock::systemUTC));
  }
}
