package dev.lipa.common.kafka;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * Puts {@link ProducerSafety} on the producer factory Boot builds for a service (the one its {@code KafkaTemplate},
 * its outbox and its dead-letter recoverer use), whatever the service's {@code spring.kafka.producer} says.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass(name = {"org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer",
    "org.apache.kafka.clients.producer.ProducerConfig"})
public class ProducerSafetyAutoConfiguration {

  @Bean
  DefaultKafkaProducerFactoryCustomizer idempotentProducersWithAcksAll() {
    return factory -> factory.updateConfigs(ProducerSafety.enforced(factory.getConfigurationProperties()));
  }
}
