package dev.lipa.checkout.config;

import com.mongodb.client.MongoDatabase;
import dev.lipa.checkout.CheckoutProperties;
import dev.lipa.checkout.session.CheckoutSessionStore;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxSettings;
import java.time.Clock;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ProducerFactory;

/** The outbox relay of the sessions collection; the domain package sees only {@link Outbox}, never a Kafka type. */
@Configuration(proxyBeanMethods = false)
class OutboxConfiguration {

  /** One producer for the service, built from {@code spring.kafka.producer.*} (idempotent, acks=all, Strings). */
  @Bean(destroyMethod = "close")
  @SuppressWarnings("unchecked")
  Producer<String, String> outboxProducer(ProducerFactory<?, ?> factory) {
    return (Producer<String, String>) factory.createProducer();
  }

  @Bean(destroyMethod = "close")
  Outbox checkoutOutbox(MongoDatabase database, Producer<String, String> producer, CheckoutProperties properties,
      Clock clock) {
    CheckoutProperties.Outbox settings = properties.outbox();
    return new Outbox(database.getCollection(CheckoutSessionStore.COLLECTION), producer,
        new OutboxSettings(settings.sweepInterval(), settings.gracePeriod(), settings.sweepBatch()), clock).start();
  }
}
