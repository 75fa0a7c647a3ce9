package dev.lipa.payouts.config;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxSettings;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.deallocation.TransferStore;
import dev.lipa.payouts.payout.PayoutStore;
import java.time.Clock;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The outbox relays of the payouts collection (send money, till and paybill share it) and of the transfers
 * collection (allocations and de-allocations). It lives here so that the
 * domain packages see only {@link Outbox}, never a Kafka type.
 */
@Configuration(proxyBeanMethods = false)
class OutboxConfiguration {

  /** One producer for the service, built from {@code spring.kafka.producer.*} (idempotent, acks=all, Strings). */
  @Bean(destroyMethod = "close")
  @SuppressWarnings("unchecked")
  Producer<String, String> outboxProducer(ProducerFactory<?, ?> factory) {
    return (Producer<String, String>) factory.createProducer();
  }

  @Bean(destroyMethod = "close")
  Outbox payoutOutbox(MongoDatabase database, Producer<String, String> producer, PayoutsProperties properties,
      Clock clock) {
    PayoutsProperties.Outbox settings = properties.outbox();
    return new Outbox(database.getCollection(PayoutStore.COLLECTION), producer,
        new OutboxSettings(settings.sweepInterval(), settings.gracePeriod(), settings.sweepBatch()), clock)
        .start();
  }

  @Bean(destroyMethod = "close")
  Outbox transferOutbox(MongoDatabase database, Producer<String, String> producer, PayoutsProperties properties,
      Clock clock) {
    PayoutsProperties.Outbox settings = properties.outbox();
    return new Outbox(database.getCollection(TransferStore.COLLECTION), producer,
        new OutboxSettings(settings.sweepInterval(), settings.gracePeriod(), settings.sweepBatch()), clock)
        .start();
  }
}
