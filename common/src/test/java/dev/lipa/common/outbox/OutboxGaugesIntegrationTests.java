package dev.lipa.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import dev.lipa.common.testsupport.MutableClock;
import dev.lipa.common.testsupport.SharedInfra;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/**
 * The outbox gauges over the Mongo wire server of {@link SharedInfra}: every outbox of a service has them, those
 * started before the gauges were watching too, and they read what is pending in the store.
 */
class OutboxGaugesIntegrationTests {

  private final MongoDatabase database = SharedInfra.mongoClient().getDatabase("outbox-gauges-" + UUID.randomUUID());
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T08:00:00Z"));
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private double gauge(String name, String collection) {
    return registry.get(name).tag("collection", collection).gauge().value();
  }

  @Test
  void everyOutboxHasItsGaugesWhetherItStartedBeforeOrAfterTheyWatched() {
    try (Outboxes outboxes = new Outboxes(new MockProducer<>(false, null, new StringSerializer(),
        new StringSerializer()), OutboxSettings.DEFAULTS, clock)) {
      outboxes.of(database.getCollection("pushes")); // started before anyone watched
      outboxes.onEachOutbox(new OutboxGauges(registry, clock)::register);
      outboxes.of(database.getCollection("payouts"));

      for (String collection : List.of("pushes", "payouts")) {
        assertThat(gauge(OutboxGauges.PENDING, collection)).isZero();
        assertThat(gauge(OutboxGauges.OLDEST_AGE, collection)).isZero();
      }
    }
  }

  @Test
  void countsPendingDocumentsAndAgesTheOldest() {
    // no outbox of its own here: its sweeper would republish (and so move) what this test leaves pending
    MongoCollection<Document> pushes = database.getCollection("pending");
    new OutboxGauges(registry, clock).register(pushes);
    assertThat(gauge(OutboxGauges.PENDING, "pending")).isZero();

    // what a publisher that cannot reach Kafka leaves: documents whose events are not acknowledged
    pushes.insertMany(List.of(
        new Document("_id", "a").append(Outbox.PENDING_SINCE, Date.from(clock.instant().minusSeconds(90))),
        new Document("_id", "b").append(Outbox.PENDING_SINCE, Date.from(clock.instant().minusSeconds(5))),
        new Document("_id", "c")));
    assertThat(gauge(OutboxGauges.PENDING, "pending")).as("read at most every few seconds").isZero();
    clock.advance(Duration.ofSeconds(OutboxGauges.MAX_AGE_SECONDS));

    assertThat(gauge(OutboxGauges.PENDING, "pending")).isEqualTo(2);
    assertThat(gauge(OutboxGauges.OLDEST_AGE, "pending")).isEqualTo(90 + OutboxGauges.MAX_AGE_SECONDS);
  }
}
