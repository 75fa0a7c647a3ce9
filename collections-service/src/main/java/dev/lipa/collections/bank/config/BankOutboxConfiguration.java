package dev.lipa.collections.bank.config;

import com.mongodb.client.MongoDatabase;
import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.bank.BankCollectionStore;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxSettings;
import java.time.Clock;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The outbox relay of the bank collections collection, on the service's one producer. It lives here so that the
 * bank package sees only {@link Outbox}, never a Kafka type.
 */
@Configuration(proxyBeanMethods = false)
class BankOutboxConfiguration {

  /**
   * Not a default candidate: other stores take "the" {@link Outbox} by type (the STK push outbox); the bank store
   * asks for this one by name.
   */
  @Bean(destroyMethod = "close", defaultCandidate = false)
  Outbox bankCollectionOutbox(MongoDatabase database, Producer<String, String> producer,
      CollectionsProperties properties, Clock clock) {
    CollectionsProperties.Outbox settings = properties.outbox();
    return new Outbox(database.getCollection(BankCollectionStore.COLLECTION), producer,
        new OutboxSettings(settings.sweepInterval(), settings.gracePeriod(), settings.sweepBatch()), clock)
        .start();
  }
}
