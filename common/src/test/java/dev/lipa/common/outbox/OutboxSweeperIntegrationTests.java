package dev.lipa.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.lipa.common.testsupport.SharedInfra;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas' outbox sweepers (two {@link Outbox}es, each with its own producer, as two processes have) on one
 * collection of the {@link SharedInfra} store and one topic of its broker: each stale event is republished once.
 */
class OutboxSweeperIntegrationTests {

  private static final int DOCUMENTS = 40;

  private MongoClient mongo;
  private Producer<String, String> producerA;
  private Producer<String, String> producerB;
  private MongoCollection<Document> collection;
  private String topic;
  private final List<Outbox> outboxes = new ArrayList<>();

  @BeforeEach
  void replicas() {
    mongo = MongoClients.create(SharedInfra.mongoUri());
    producerA = producer();
    producerB = producer();
    String name = "sweep-" + UUID.randomUUID();
    collection = mongo.getDatabase("outbox-tests").getCollection(name);
    topic = "test." + name;
  }

  @AfterEach
  void close() {
    outboxes.forEach(Outbox::close);
    producerA.close();
    producerB.close();
    mongo.close();
  }

  @Test
  void twoSweepersRacingOverTheSameStaleEventsPublishEachOnce() throws Exception {
    List<String> eventIds = leaveStaleEvents();
    Outbox replicaA = outbox(producerA, Duration.ofMillis(100));
    Outbox replicaB = outbox(producerB, Duration.ofMillis(100));

    CountDownLatch start = new CountDownLatch(1);
    int sent;
    try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
      Future<Integer> a = pool.submit(() -> {
        start.await();
        return replicaA.sweep();
      });
      Future<Integer> b = pool.submit(() -> {
        start.await();
        return replicaB.sweep();
      });
      start.countDown();
      sent = a.get() + b.get();
    }

    assertThat(sent).isEqualTo(DOCUMENTS);
    await().atMost(Duration.ofSeconds(20)).until(() -> collection.countDocuments(Filters.exists(Outbox.EVENTS)) == 0);
    assertThat(publishedPerEvent()).containsOnlyKeys(eventIds).allSatisfy((id, times) -> assertThat(times).isOne());
  }

  @Test
  void aSweepRightAfterAnotherReplicasSweepLeavesItsEventsToIt() {
    List<String> eventIds = leaveStaleEvents();
    // acknowledgements held for long: the documents still carry the events when the second sweep reads them
    Outbox replicaA = outbox(producerA, Duration.ofSeconds(30));
    Outbox replicaB = outbox(producerB, Duration.ofSeconds(30));

    assertThat(replicaA.sweep()).isEqualTo(DOCUMENTS);
    assertThat(collection.countDocuments(Filters.exists(Outbox.EVENTS))).isEqualTo(DOCUMENTS);
    assertThat(replicaB.sweep()).isZero();

    assertThat(publishedPerEvent()).containsOnlyKeys(eventIds).allSatisfy((id, times) -> assertThat(times).isOne());
  }

  @Test
  void aSweepTakesTheDocumentsPendingLongestFirst() {
    leaveStaleEvents();
    // written last, pending longest: an event Kafka refused during an outage, behind a backlog of newer ones
    String eventId = UUID.randomUUID().toString();
    OutboxEvent refused = new OutboxEvent(eventId, topic, "oldest", "{\"eventId\":\"" + eventId + "\"}");
    collection.insertOne(new Document("_id", "oldest").append(Outbox.EVENTS, List.of(refused.toDocument()))
        .append(Outbox.PENDING_SINCE, Date.from(Instant.now().minusSeconds(600))));
    Outbox sweeper = new Outbox(collection, producerA,
        new OutboxSettings(Duration.ofHours(1), Duration.ofSeconds(60), 1, Duration.ofSeconds(30)), Clock.systemUTC());
    outboxes.add(sweeper);

    assertThat(sweeper.sweep()).isOne();

    Date aMinuteAgo = Date.from(Instant.now().minusSeconds(60));
    assertThat(collection.find(Filters.eq("_id", "oldest")).first().getDate(Outbox.PENDING_SINCE))
        .as("claimed, its pending time moved to now").isAfter(aMinuteAgo);
    assertThat(collection.countDocuments(Filters.lt(Outbox.PENDING_SINCE, aMinuteAgo))).isEqualTo(DOCUMENTS);
  }

  @Test
  void aBacklogOfManyBatchesDrainsInOneTickNotOneBatchPerInterval() {
    List<String> eventIds = leaveStaleEvents();
    // batches of 5: the 40 stale documents are 8 batches, 8 intervals (16 s) if each tick took one
    Outbox replica = new Outbox(collection, producerA,
        new OutboxSettings(Duration.ofSeconds(2), Duration.ofSeconds(60), 5, Duration.ofMillis(100)),
        Clock.systemUTC());
    outboxes.add(replica);
    replica.start();

    await().atMost(Duration.ofSeconds(8)).until(() -> collection.countDocuments(Filters.exists(Outbox.EVENTS)) == 0);
    assertThat(publishedPerEvent()).containsOnlyKeys(eventIds).allSatisfy((id, times) -> assertThat(times).isOne());
  }

  /** What crashed writers leave: documents whose events were written two minutes ago and never acknowledged. */
  private List<String> leaveStaleEvents() {
    List<String> eventIds = new ArrayList<>();
    Date longAgo = Date.from(Instant.now().minusSeconds(120));
    for (int i = 0; i < DOCUMENTS; i++) {
      String id = "doc-" + i;
      String eventId = UUID.randomUUID().toString();
      eventIds.add(eventId);
      OutboxEvent event = new OutboxEvent(eventId, topic, id, "{\"eventId\":\"" + eventId + "\"}");
      collection.insertOne(new Document("_id", id).append(Outbox.EVENTS, List.of(event.toDocument()))
          .append(Outbox.PENDING_SINCE, longAgo));
    }
    return eventIds;
  }

  private Outbox outbox(Producer<String, String> producer, Duration ackDelay) {
    // never started: the test runs the sweeps itself
    Outbox outbox = new Outbox(collection, producer,
        new OutboxSettings(Duration.ofHours(1), Duration.ofSeconds(60), 500, ackDelay), Clock.systemUTC());
    outboxes.add(outbox);
    return outbox;
  }

  private Map<String, Integer> publishedPerEvent() {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "sweep-test-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    Map<String, Integer> times = new HashMap<>();
    producerA.flush();
    producerB.flush();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(List.of(topic));
      long quietUntil = System.nanoTime() + Duration.ofSeconds(3).toNanos();
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      // read until every event arrived and then a quiet spell, in which a duplicate would show up
      while (System.nanoTime() < deadline && (times.size() < DOCUMENTS || System.nanoTime() < quietUntil)) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          String eventId = record.value().substring(12, record.value().length() - 2);
          times.merge(eventId, 1, Integer::sum);
        }
      }
    }
    return times;
  }

  private static Producer<String, String> producer() {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    return new KafkaProducer<>(props);
  }
}
