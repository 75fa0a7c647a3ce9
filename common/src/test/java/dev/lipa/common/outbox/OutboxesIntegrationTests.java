package dev.lipa.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.testsupport.SharedInfra;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The outboxes of one service over the Mongo wire server of {@link SharedInfra}. */
class OutboxesIntegrationTests {

  private final MongoDatabase database = SharedInfra.mongoClient().getDatabase("outboxes-" + UUID.randomUUID());

  /** Records the order in which the outboxes flush it and it is closed. */
  static final class RecordingProducer extends MockProducer<String, String> {

    final List<String> calls = new CopyOnWriteArrayList<>();

    RecordingProducer() {
      super(true, null, new StringSerializer(), new StringSerializer());
    }

    @Override
    public synchronized void flush() {
      calls.add(closed() ? "flush after close" : "flush");
      super.flush();
    }

    @Override
    public void close() {
      calls.add("close");
      super.close();
    }
  }

  @Test
  void givesEveryStoreOfACollectionTheSameOutbox() {
    try (Outboxes outboxes = new Outboxes(new RecordingProducer(), OutboxSettings.DEFAULTS, Clock.systemUTC())) {
      Outbox first = outboxes.of(database.getCollection("pushes"));
      assertThat(outboxes.of(database.getCollection("pushes"))).isSameAs(first);
      assertThat(outboxes.of(database.getCollection("payouts"))).isNotSameAs(first);
    }
  }

  @Test
  void closesEveryOutboxBeforeTheProducerTheyFlush() {
    RecordingProducer producer = new RecordingProducer();
    Outboxes outboxes = new Outboxes(producer, OutboxSettings.DEFAULTS, Clock.systemUTC());
    outboxes.of(database.getCollection("pushes"));
    outboxes.of(database.getCollection("payouts"));

    outboxes.close();

    assertThat(producer.calls).containsExactly("flush", "flush", "close");
    assertThat(producer.closed()).isTrue();
  }

  @Test
  void refusesToOpenAnOutboxOnceClosed() {
    Outboxes outboxes = new Outboxes(new RecordingProducer(), OutboxSettings.DEFAULTS, Clock.systemUTC());
    outboxes.close();

    assertThatThrownBy(() -> outboxes.of(database.getCollection("late"))).isInstanceOf(IllegalStateException.class);
  }
}
