package dev.lipa.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.tracing.TestTracing;
import dev.lipa.common.tracing.TraceContexts;
import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * An event continues the trace it was written under, however it reaches Kafka: relayed right after the write, or
 * republished by the sweeper later (by this replica or another, with no span of that trace current), against the real
 * broker and store of {@link SharedInfra}.
 */
class OutboxTraceContextIntegrationTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static MongoClient mongo;
  private static Producer<String, String> producer;

  private final TestTracing tracing = TestTracing.sampled();
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
    String name = "traced-" + UUID.randomUUID();
    collection = mongo.getDatabase("outbox-tests").getCollection(name);
    topic = "test." + name;
    outbox = outbox(tracing.contexts());
  }

  @AfterEach
  void closeOutbox() {
    outbox.close();
  }

  @Test
  void aRelayedEventCarriesTheTraceItWasWrittenUnderInItsTraceparentHeader() {
    String traceId = tracing.inNewTrace(() ->
        outbox.insert(new Document("_id", "t-1").append("status", "PENDING"), List.of(event("t-1"))));

    ConsumerRecord<String, String> record = single(consume());

    String traceparent = traceparent(record);
    assertThat(TestTracing.traceId(traceparent)).isEqualTo(traceId);
    assertThat(TestTracing.sampled(traceparent)).as("sampled, as the trace was").isTrue();
  }

  @Test
  void anUpdatesEventsCarryTheTraceOfTheUpdateNotOfTheInsert() {
    OutboxEvent accepted = event("t-2");
    OutboxEvent succeeded = event("t-2");
    String insertTrace = tracing.inNewTrace(() ->
        outbox.insert(new Document("_id", "t-2").append("status", "PENDING"), List.of(accepted)));
    String updateTrace = tracing.inNewTrace(() ->
        outbox.update(Filters.and(Filters.eq("_id", "t-2"), Filters.eq("status", "PENDING")),
            Updates.set("status", "SUCCESS"), List.of(succeeded)));

    Map<String, String> traceByPayload = new java.util.HashMap<>();
    consume().forEach(r -> traceByPayload.put(r.value(), TestTracing.traceId(traceparent(r))));

    assertThat(traceByPayload).containsOnly(Map.entry(accepted.payload(), insertTrace),
        Map.entry(succeeded.payload(), updateTrace));
  }

  @Test
  void theSweeperRepublishesALeftOverEventUnderTheTraceStoredWithIt() {
    // what a crash leaves behind: the event stored under a trace, never relayed; the sweep runs on its own thread, in
    // no trace at all, as it would on another replica after a restart
    String stored = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    OutboxEvent leftOver = event("t-3");
    collection.insertOne(new Document("_id", "t-3")
        .append(Outbox.EVENTS, List.of(new OutboxEvent(leftOver.eventId(), topic, "t-3", leftOver.payload(), stored)
            .toDocument()))
        .append(Outbox.PENDING_SINCE, Date.from(Instant.now().minus(Duration.ofMinutes(5)))));

    assertThat(outbox.sweep()).isEqualTo(1);

    String traceparent = traceparent(single(consume()));
    assertThat(TestTracing.traceId(traceparent)).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    // the relay is a span of its own in that trace, a child of the stored context
    assertThat(TestTracing.spanId(traceparent)).isNotEqualTo("00f067aa0ba902b7");
  }

  @Test
  void theStoredContextIsTheOneCurrentWhenTheEventWasWritten() {
    // a producer that never answers keeps the event in the document, where the test can read it
    outbox.close();
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 200);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    try (KafkaProducer<String, String> unreachable = new KafkaProducer<>(props)) {
      outbox = new Outbox(collection, unreachable, new OutboxSettings(Duration.ofMinutes(1), Duration.ofMinutes(5),
          100), Clock.systemUTC(), tracing.contexts());
      String traceId = tracing.inNewTrace(() ->
          outbox.insert(new Document("_id", "t-4"), List.of(event("t-4"))));

      Document document = collection.find(Filters.eq("_id", "t-4")).first();
      List<Document> events = document.getList(Outbox.EVENTS, Document.class);
      assertThat(events).singleElement().satisfies(e ->
          assertThat(TestTracing.traceId(e.getString(TraceContexts.TRACEPARENT))).isEqualTo(traceId));
      outbox.close();
    }
    outbox = outbox(TraceContexts.NONE);
  }

  @Test
  void anUnsampledTraceIsPropagatedAllTheSame() {
    TestTracing unsampled = TestTracing.unsampled();
    outbox.close();
    outbox = outbox(unsampled.contexts());

    String traceId = unsampled.inNewTrace(() -> outbox.insert(new Document("_id", "t-5"), List.of(event("t-5"))));

    String traceparent = traceparent(single(consume()));
    assertThat(TestTracing.traceId(traceparent)).isEqualTo(traceId);
    assertThat(TestTracing.sampled(traceparent)).isFalse();
  }

  @Test
  void aMalformedStoredContextIsNotPassedOnAndTheRelayStartsATraceOfItsOwn() {
    String forged = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nx-injected: 1";
    OutboxEvent leftOver = event("t-6");
    collection.insertOne(new Document("_id", "t-6")
        .append(Outbox.EVENTS, List.of(new OutboxEvent(leftOver.eventId(), topic, "t-6", leftOver.payload(), forged)
            .toDocument()))
        .append(Outbox.PENDING_SINCE, Date.from(Instant.now().minus(Duration.ofMinutes(5)))));

    outbox.sweep();

    String traceparent = traceparent(single(consume()));
    assertThat(traceparent).matches(TraceContexts.WELL_FORMED.pattern());
    assertThat(TestTracing.traceId(traceparent)).isNotEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
  }

  @Test
  void withoutATracerAStoredContextIsSentAsItIs() {
    outbox.close();
    outbox = outbox(TraceContexts.NONE);
    String stored = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";
    OutboxEvent leftOver = event("t-7");
    collection.insertOne(new Document("_id", "t-7")
        .append(Outbox.EVENTS, List.of(new OutboxEvent(leftOver.eventId(), topic, "t-7", leftOver.payload(), stored)
            .toDocument()))
        .append(Outbox.PENDING_SINCE, Date.from(Instant.now().minus(Duration.ofMinutes(5)))));

    outbox.sweep();

    assertThat(traceparent(single(consume()))).isEqualTo(stored);
  }

  private Outbox outbox(TraceContexts contexts) {
    return new Outbox(collection, producer, new OutboxSettings(Duration.ofMillis(100), Duration.ofSeconds(1), 100),
        Clock.systemUTC(), contexts);
  }

  private OutboxEvent event(String key) {
    return OutboxEvent.of(topic, key, EventEnvelope.create("test.happened", "org-1", Map.of("key", key)), JSON);
  }

  private static String traceparent(ConsumerRecord<String, String> record) {
    Header header = record.headers().lastHeader(TraceContexts.TRACEPARENT);
    assertThat(header).as("traceparent header").isNotNull();
    return new String(header.value(), StandardCharsets.US_ASCII);
  }

  private static ConsumerRecord<String, String> single(List<ConsumerRecord<String, String>> records) {
    assertThat(records).hasSize(1);
    return records.get(0);
  }

  /** Everything on this test's topic, read until nothing new arrived for a second. */
  private List<ConsumerRecord<String, String>> consume() {
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
        } else if (!records.isEmpty() && System.nanoTime() - quietSince > Duration.ofSeconds(1).toNanos()) {
          break;
        }
      }
    }
    return records;
  }
}
