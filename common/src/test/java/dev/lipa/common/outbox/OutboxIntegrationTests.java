package dev.lipa.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.MongoServer;
import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.store.StoreBackends;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The outbox against the real broker and the Mongo wire server of {@link SharedInfra}. */
class OutboxIntegrationTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static MongoClient mongo;
  private static Producer<String, String> producer;

  private MongoCollection<Document> collection;
  private String topic;
  private Outbox outbox;

  @BeforeAll
  static void connect() {
    mongo = MongoClients.create(SharedInfra.mongoUri());
    producer = SharedInfra.idempotentProducer();
  }

  @AfterAll
  static void disconnect() {
    producer.close();
    mongo.close();
  }

  @BeforeEach
  void freshCollectionAndTopic() {
    String name = "outbox-" + UUID.randomUUID();
    collection = mongo.getDatabase("outbox-tests").getCollection(name);
    topic = "test." + name;
    outbox = new Outbox(collection, producer,
        new OutboxSettings(Duration.ofMillis(100), Duration.ofSeconds(1), 100), Clock.systemUTC());
  }

  @AfterEach
  void closeOutbox() {
    outbox.close();
  }

  @Test
  void publishesAnInsertedDocumentsEventOnceAndRemovesItAfterTheAcknowledgement() {
    OutboxEvent event = event("a-1");
    outbox.insert(new Document("_id", "a-1").append("status", "PENDING"), List.of(event));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      Document stored = collection.find(Filters.eq("_id", "a-1")).first();
      assertThat(stored).doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE).containsEntry("status", "PENDING");
    });
    List<ConsumerRecord<String, String>> records = consume(Duration.ofSeconds(2));
    assertThat(records).singleElement().satisfies(r -> {
      assertThat(r.key()).isEqualTo("a-1");
      assertThat(r.value()).isEqualTo(event.payload());
    });
    assertThat(JSON.readTree(records.get(0).value()).get("eventId").stringValue()).isEqualTo(event.eventId());
  }

  @Test
  void appendsEventsWithAGuardedTransitionAndPublishesThemOnce() {
    outbox.insert(new Document("_id", "a-2").append("status", "PENDING"), List.of());
    OutboxEvent first = event("a-2");
    OutboxEvent second = event("a-2");

    boolean applied = outbox.update(Filters.and(Filters.eq("_id", "a-2"), Filters.eq("status", "PENDING")),
        Updates.set("status", "SUCCESS"), List.of(first, second));

    assertThat(applied).isTrue();
    assertThat(collection.find(Filters.eq("_id", "a-2")).first()).containsEntry("status", "SUCCESS");
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
        collection.find(Filters.eq("_id", "a-2")).first()).doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE));
    assertThat(consume(Duration.ofSeconds(2))).extracting(ConsumerRecord::value)
        .containsExactly(first.payload(), second.payload());
  }

  @Test
  void writesAndPublishesNothingWhenTheExpectedStateDoesNotMatch() {
    outbox.insert(new Document("_id", "a-3").append("status", "SUCCESS"), List.of());

    boolean applied = outbox.update(Filters.and(Filters.eq("_id", "a-3"), Filters.eq("status", "PENDING")),
        Updates.set("status", "FAILED"), List.of(event("a-3")));

    assertThat(applied).isFalse();
    assertThat(collection.find(Filters.eq("_id", "a-3")).first())
        .containsEntry("status", "SUCCESS").doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE);
    assertThat(consume(Duration.ofSeconds(2))).isEmpty();
  }

  @Test
  void sweeperRepublishesEventsACrashLeftBehind() {
    OutboxEvent leftOver = event("a-4");
    // what a process that died between its write and the acknowledgement leaves in the store
    collection.insertOne(new Document("_id", "a-4").append("status", "PENDING")
        .append(Outbox.EVENTS, List.of(leftOver.toDocument()))
        .append(Outbox.PENDING_SINCE, Date.from(Instant.now().minusSeconds(60))));

    outbox.start();

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
        collection.find(Filters.eq("_id", "a-4")).first()).doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE));
    assertThat(consume(Duration.ofSeconds(2))).extracting(ConsumerRecord::value).contains(leftOver.payload());
  }

  @Test
  void sweeperLeavesRecentlyWrittenEventsToTheirWriter() {
    OutboxEvent recent = event("a-5");
    collection.insertOne(new Document("_id", "a-5")
        .append(Outbox.EVENTS, List.of(recent.toDocument()))
        .append(Outbox.PENDING_SINCE, new Date()));

    assertThat(outbox.sweep()).isZero();
  }

  @Test
  void keepsTheOldestPendingTimeAndOnlyRemovesAcknowledgedEventsWhenOthersAreWaiting() {
    OutboxEvent stale = event("a-6");
    Date since = Date.from(Instant.now().minusSeconds(600));
    collection.insertOne(new Document("_id", "a-6").append("status", "PENDING")
        .append(Outbox.EVENTS, List.of(stale.toDocument())).append(Outbox.PENDING_SINCE, since));
    OutboxEvent fresh = event("a-6");

    outbox.update(Filters.eq("_id", "a-6"), Updates.set("status", "SUCCESS"), List.of(fresh));

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      Document stored = collection.find(Filters.eq("_id", "a-6")).first();
      assertThat(stored.getList(Outbox.EVENTS, Document.class)).extracting(d -> d.getString("eventId"))
          .containsExactly(stale.eventId());
      assertThat(stored.getDate(Outbox.PENDING_SINCE)).isEqualTo(since);
    });

    assertThat(outbox.sweep()).isEqualTo(1);
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
        collection.find(Filters.eq("_id", "a-6")).first()).doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE));
    assertThat(consume(Duration.ofSeconds(2))).extracting(ConsumerRecord::value)
        .containsExactlyInAnyOrder(fresh.payload(), stale.payload());
  }

  @Test
  void keepsAnEventKafkaRefusedUntilTheSweeperGetsItThrough() {
    MockProducer<String, String> refusing = new MockProducer<>(false, null, new StringSerializer(),
        new StringSerializer());
    OutboxEvent event = event("a-7");
    try (Outbox unlucky = new Outbox(collection, refusing, OutboxSettings.DEFAULTS, Clock.systemUTC())) {
      unlucky.insert(new Document("_id", "a-7"), List.of(event));
      await().atMost(Duration.ofSeconds(5)).until(() -> refusing.history().size() == 1);
      assertThat(refusing.errorNext(new TimeoutException("broker unreachable"))).isTrue();
    }

    assertThat(collection.find(Filters.eq("_id", "a-7")).first().getList(Outbox.EVENTS, Document.class))
        .extracting(d -> d.getString("eventId")).containsExactly(event.eventId());

    outbox.start();
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
        collection.find(Filters.eq("_id", "a-7")).first()).doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE));
    assertThat(consume(Duration.ofSeconds(2))).extracting(ConsumerRecord::value).containsExactly(event.payload());
  }

  @Test
  void passesOnEveryAcknowledgedEventAndNeverARefusedOne() {
    List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    MockProducer<String, String> refusing = new MockProducer<>(false, null, new StringSerializer(),
        new StringSerializer());
    OutboxEvent refused = event("l-1");
    try (Outbox unlucky = new Outbox(collection, refusing, OutboxSettings.DEFAULTS, Clock.systemUTC())) {
      unlucky.onAcknowledged(e -> heard.add(e.eventId()));
      unlucky.insert(new Document("_id", "l-1").append("status", "PENDING"), List.of(refused));
      await().atMost(Duration.ofSeconds(5)).until(() -> refusing.history().size() == 1);
      assertThat(refusing.errorNext(new TimeoutException("broker unreachable"))).isTrue();
    }
    assertThat(heard).isEmpty();

    // a listener that fails changes nothing: the removal is written and the other listener still hears the event
    outbox.onAcknowledged(e -> {
      throw new IllegalStateException("a listener's own failure");
    });
    outbox.onAcknowledged(e -> heard.add(e.eventId()));
    OutboxEvent inserted = event("l-2");
    outbox.insert(new Document("_id", "l-2").append("status", "PENDING"), List.of(inserted));
    OutboxEvent updated = event("l-2");
    await().atMost(Duration.ofSeconds(20)).until(() -> heard.contains(inserted.eventId()));
    assertThat(outbox.update(Filters.and(Filters.eq("_id", "l-2"), Filters.eq("status", "PENDING")),
        Updates.set("status", "SUCCESS"), List.of(updated))).isTrue();
    // the refused event, republished by the sweep, is heard once Kafka has it
    outbox.start();

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(heard).containsExactlyInAnyOrder(inserted.eventId(), updated.eventId(), refused.eventId());
      assertThat(collection.find(Filters.in("_id", "l-1", "l-2")).into(new ArrayList<>()))
          .allSatisfy(d -> assertThat(d).doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE));
    });
  }

  @Test
  void theNextStateChangeCarriesTheHeldAcknowledgementInTheSameWrite() {
    try (Outbox holding = new Outbox(collection, producer,
        new OutboxSettings(Duration.ofSeconds(60), Duration.ofSeconds(120), 100, Duration.ofSeconds(30)),
        Clock.systemUTC())) {
      OutboxEvent accepted = event("h-1");
      holding.insert(new Document("_id", "h-1").append("status", "PENDING"), List.of(accepted));
      assertThat(consume(Duration.ofSeconds(1))).extracting(ConsumerRecord::value).containsExactly(accepted.payload());
      // Kafka acknowledged it, but its removal waits for the next change (30 s at most)
      assertThat(collection.find(Filters.eq("_id", "h-1")).first().getList(Outbox.EVENTS, Document.class))
          .extracting(d -> d.getString("eventId")).containsExactly(accepted.eventId());

      OutboxEvent succeeded = event("h-1");
      assertThat(holding.update("h-1", Filters.eq("status", "PENDING"), Updates.set("status", "SUCCESS"),
          List.of(succeeded))).isTrue();

      // one write: the new state, and the outbox holding only the new event
      Document after = collection.find(Filters.eq("_id", "h-1")).first();
      assertThat(after).containsEntry("status", "SUCCESS");
      assertThat(after.getList(Outbox.EVENTS, Document.class)).extracting(d -> d.getString("eventId"))
          .containsExactly(succeeded.eventId());
      assertThat(consume(Duration.ofSeconds(1))).extracting(ConsumerRecord::value)
          .containsExactly(accepted.payload(), succeeded.payload());
    }
    // closing writes what is still held (it waits a few seconds for it, then lets it finish in the background)
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
        collection.find(Filters.eq("_id", "h-1")).first())
        .containsEntry("status", "SUCCESS").doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE));
  }

  @Test
  void aHeldAcknowledgementIsWrittenOnItsOwnWhenNoChangeComesInTime() {
    try (Outbox holding = new Outbox(collection, producer,
        new OutboxSettings(Duration.ofSeconds(60), Duration.ofSeconds(120), 100, Duration.ofMillis(500)),
        Clock.systemUTC())) {
      for (int i = 0; i < 20; i++) {
        holding.insert(new Document("_id", "h-2-" + i), List.of(event("h-2-" + i)));
      }
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
          collection.countDocuments(Filters.exists(Outbox.EVENTS))).isZero());
      assertThat(collection.countDocuments(Filters.exists(Outbox.PENDING_SINCE))).isZero();
    }
  }

  /**
   * Found as a 30 s hang at the end of a test JVM whose store went down first: the periodic writer of held
   * acknowledgements waited for the unreachable store (the driver's 30 s server selection) while holding the lock
   * close() needed. close() now interrupts it and returns within its own few seconds.
   */
  @Test
  void closesPromptlyWhileAHeldAcknowledgementWaitsForAStoreThatIsGone() throws Exception {
    MongoServer store = new MongoServer(StoreBackends.memory());
    InetSocketAddress address = store.bind();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort())) {
      MongoCollection<Document> documents = client.getDatabase("outbox-tests").getCollection("gone");
      Outbox holding = new Outbox(documents, producer,
          new OutboxSettings(Duration.ofSeconds(60), Duration.ofSeconds(120), 100, Duration.ofMillis(300)),
          Clock.systemUTC());
      holding.insert(new Document("_id", "g-1"), List.of(event("g-1")));
      store.shutdownNow();
      Thread.sleep(1_500); // the acknowledgement is due: the writer is now waiting for the store

      long started = System.nanoTime();
      holding.close();

      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(12));
    }
  }

  /**
   * close() stops the publisher before the writer of held acknowledgements: the answers Kafka gives while close()
   * flushes the producer become held removals, which the last write then makes. Closed the other way round, they are
   * held after that write and the document keeps its events until a sweeper republishes them.
   */
  @Test
  void closingWritesTheAcknowledgementsKafkaGivesWhileItFlushes() {
    // answers nothing until flushed, as a producer with a send still on the wire
    MockProducer<String, String> answersOnFlush = new MockProducer<>(false, null, new StringSerializer(),
        new StringSerializer());
    Outbox holding = new Outbox(collection, answersOnFlush,
        new OutboxSettings(Duration.ofSeconds(60), Duration.ofSeconds(120), 100, Duration.ofSeconds(30)),
        Clock.systemUTC());
    holding.insert(new Document("_id", "c-1").append("status", "PENDING"), List.of(event("c-1")));
    await().atMost(Duration.ofSeconds(5)).until(() -> answersOnFlush.history().size() == 1);
    assertThat(collection.find(Filters.eq("_id", "c-1")).first()).containsKeys(Outbox.EVENTS);

    holding.close();

    assertThat(answersOnFlush.completeNext()).as("the flush answered the send").isFalse();
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
        collection.find(Filters.eq("_id", "c-1")).first())
        .containsEntry("status", "PENDING").doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE));
  }

  @Test
  void aClosedOutboxSweepsNoMore() {
    MockProducer<String, String> watched = new MockProducer<>(true, null, new StringSerializer(),
        new StringSerializer());
    Outbox sweeping = new Outbox(collection, watched,
        new OutboxSettings(Duration.ofMillis(50), Duration.ofSeconds(1), 100), Clock.systemUTC()).start();
    sweeping.close();
    collection.insertOne(new Document("_id", "c-2")
        .append(Outbox.EVENTS, List.of(event("c-2").toDocument()))
        .append(Outbox.PENDING_SINCE, Date.from(Instant.now().minusSeconds(60))));

    // twenty sweep intervals of the closed outbox: the stale event was sent nowhere
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> watched.history().isEmpty());
  }

  @Test
  void aStateChangeThatDoesNotMatchWritesNothingAndKeepsTheAcknowledgementHeld() {
    try (Outbox holding = new Outbox(collection, producer,
        new OutboxSettings(Duration.ofSeconds(60), Duration.ofSeconds(120), 100, Duration.ofSeconds(30)),
        Clock.systemUTC())) {
      OutboxEvent accepted = event("h-3");
      holding.insert(new Document("_id", "h-3").append("status", "SUCCESS"), List.of(accepted));
      consume(Duration.ofSeconds(1));

      assertThat(holding.update("h-3", Filters.eq("status", "PENDING"), Updates.set("status", "FAILED"),
          List.of(event("h-3")))).isFalse();

      Document stored = collection.find(Filters.eq("_id", "h-3")).first();
      assertThat(stored).containsEntry("status", "SUCCESS");
      assertThat(stored.getList(Outbox.EVENTS, Document.class)).extracting(d -> d.getString("eventId"))
          .containsExactly(accepted.eventId());
      assertThat(consume(Duration.ofSeconds(1))).extracting(ConsumerRecord::value).containsExactly(accepted.payload());
    }
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
        collection.find(Filters.eq("_id", "h-3")).first()).doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE));
  }

  @Test
  void aChangeWrittenWithoutTheIdFallsBackToRemovingOnlyTheAcknowledgedEvents() {
    try (Outbox holding = new Outbox(collection, producer,
        new OutboxSettings(Duration.ofSeconds(60), Duration.ofSeconds(120), 100, Duration.ofMillis(800)),
        Clock.systemUTC())) {
      OutboxEvent first = event("h-4");
      holding.insert(new Document("_id", "h-4").append("status", "PENDING"), List.of(first));
      consume(Duration.ofSeconds(1));
      // the plain update appends to the outbox while the first event's removal is held
      OutboxEvent second = event("h-4");
      holding.update(Filters.eq("_id", "h-4"), Updates.set("status", "SUCCESS"), List.of(second));

      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
          collection.find(Filters.eq("_id", "h-4")).first()).doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE));
      assertThat(consume(Duration.ofSeconds(1))).extracting(ConsumerRecord::value)
          .containsExactly(first.payload(), second.payload());
    }
  }

  private OutboxEvent event(String key) {
    return OutboxEvent.of(topic, key, EventEnvelope.create("test.happened", "org-1", Map.of("key", key)), JSON);
  }

  /** Everything on this test's topic, read until nothing new arrived for {@code quiet}. */
  private List<ConsumerRecord<String, String>> consume(Duration quiet) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      long quietSince = System.nanoTime();
      while (System.nanoTime() < deadline) {
        var batch = consumer.poll(Duration.ofMillis(200));
        batch.forEach(records::add);
        if (!batch.isEmpty()) {
          quietSince = System.nanoTime();
        } else if (!consumer.assignment().isEmpty() && System.nanoTime() - quietSince > quiet.toNanos()) {
          break;
        }
      }
    }
    return records;
  }
}
