package dev.lipa.auth;

import com.mongodb.client.MongoDatabase;
import dev.lipa.auth.organisations.Organisations;
import dev.lipa.common.events.Topics;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxSettings;
import java.time.Clock;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.ProducerFactory;

/**
 * What auth-service publishes: organisation profiles on {@value Topics#ORGANISATIONS}, through the outbox of the
 * organisations collection. Lives here so that the organisations package sees only {@link Outbox}, never Kafka.
 */
@Configuration(proxyBeanMethods = false)
class EventsConfiguration {

  /** One producer for the service, built from {@code spring.kafka.producer.*} (idempotent, acks=all, Strings). */
  @Bean(destroyMethod = "close")
  @SuppressWarnings("unchecked")
  Producer<String, String> outboxProducer(ProducerFactory<?, ?> factory) {
    return (Producer<String, String>) factory.createProducer();
  }

  @Bean(destroyMethod = "close")
  Outbox organisationOutbox(MongoDatabase database, Producer<String, String> producer, AuthProperties properties,
      Clock clock) {
    AuthProperties.Outbox settings = properties.outbox();
    return new Outbox(database.getCollection(Organisations.COLLECTION), producer,
        new OutboxSettings(settings.sweepInterval(), settings.gracePeriod(), settings.sweepBatch()), clock).start();
  }

  /**
   * The profiles topic is compacted by key (organisationId): it keeps the latest profile of every organisation for
   * ever, so a service that starts reading it from the earliest offset, at any time, rebuilds a complete copy.
   * Created here, by its producer, when missing; with {@code spring.kafka.admin.modify-topic-configs} an existing
   * topic (say, auto-created by an early consumer) is switched to compaction too. Partitions and replication come
   * from the broker's defaults (3 and 3 on the cluster).
   */
  @Bean
  NewTopic organisationsTopic() {
    return TopicBuilder.name(Topics.ORGANISATIONS).compact().build();
  }
}
