package dev.lipa.payouts.ledger;

import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;

/**
 * The batch container factory of the ledger's credits: collections ({@code dev.lipa.payouts.ledger.CollectionCredits},
 * group {@code payouts-ledger}) and card payments through the hosted checkout
 * ({@code dev.lipa.payouts.ledger.CheckoutCredits}, group {@code payouts-checkout-credits}). The service's other
 * listeners keep Spring Boot's record-at-a-time factory.
 */
@Configuration(proxyBeanMethods = false)
class LedgerKafkaConfiguration {

  /**
   * Boot's {@code spring.kafka.*} settings plus: batch delivery (a poll's records in one call) and offsets committed
   * after the listener returned for the whole batch (so only once its credits are in the store). Its error handler is
   * the platform's (common's {@code ListenerErrorHandlingAutoConfiguration} sets it on every factory): a store failure
   * is retried, uncommitted and paused, until the store is back (a credit is money, never skipped after a few
   * attempts), and a record that can never be a credit goes to the consumer's dead letters.
   */
  @Bean("ledgerCreditsContainerFactory") // CollectionCredits.CONTAINER_FACTORY
  ConcurrentKafkaListenerContainerFactory<Object, Object> ledgerCreditsContainerFactory(
      ConcurrentKafkaListenerContainerFactoryConfigurer configurer, ConsumerFactory<Object, Object> consumerFactory) {
    ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
    configurer.configure(factory, consumerFactory);
    factory.setBatchListener(true);
    factory.getContainerProperties().setAckMode(ContainerProperties.AckMode.BATCH);
    return factory;
  }
}
