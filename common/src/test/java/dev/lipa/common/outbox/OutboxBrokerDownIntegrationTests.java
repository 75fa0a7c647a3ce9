package dev.lipa.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.testsupport.SharedInfra;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The outbox while no broker answers (issue 15: accepting a payment must not depend on the broker): a write is never
 * held up by Kafka, its events stay in its document, and they reach Kafka once a broker answers. The broker here is a
 * port nothing listens on, so every send waits {@code max.block.ms} for the topic's metadata and then fails, as the
 * services' producers do while every broker is down.
 */
class OutboxBrokerDownIntegrationTests {

  /** A write that called into the producer would wait this long for metadata that never comes. */
  private static final Duration MAX_BLOCK = Duration.ofSeconds(15);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private MongoCollection<Document> collection;
  private String topic;

  @BeforeEach
  void freshCollectionAndTopic() {
    String name = "outbox-down-" + UUID.randomUUID();
    collection = SharedInfra.mongoClient().getDatabase("outbox-tests").getCollection(name);
    topic = "test." + name;
  }

  @Test
  void writesDoNotWaitForAnUnreachableBrokerAndTheirEventsAreSentOnceABrokerAnswers() throws IOException {
    List<String> written = new ArrayList<>();
    long slowestWriteNanos = 0;
    Producer<String, String> unreachable = producer("127.0.0.1:" + closedPort(), MAX_BLOCK);
    try (Outbox down = new Outbox(collection, unreachable, new OutboxSettings(Duration.ofMillis(200),
        Duration.ofSeconds(1), 100), Clock.systemUTC()).start()) {
      // the sweeper runs too, as in a service: it republishes into the same unreachable producer meanwhile
      for (int i = 0; i < 40; i++) {
        String id = "p-" + i;
        OutboxEvent accepted = event(id);
        long start = System.nanoTime();
        down.insert(new Document("_id", id).append("status", "PENDING"), List.of(accepted));
        slowestWriteNanos = Math.max(slowestWriteNanos, System.nanoTime() - start);
        written.add(accepted.eventId());
        if (i % 4 == 0) {
          // a state change of an earlier document (the rail's outcome) is a write that publishes as well
          OutboxEvent outcome = event(id);
          start = System.nanoTime();
          down.update(Filters.and(Filters.eq("_id", id), Filters.eq("status", "PENDING")),
              Updates.set("status", "SUCCESS"), List.of(outcome));
          slowestWriteNanos = Math.max(slowestWriteNanos, System.nanoTime() - start);
          written.add(outcome.eventId());
        }
      }
    } finally {
      unreachable.close(Duration.ZERO);
    }

    // every one of 50 writes answered before a single metadata wait could have ended: none waited for Kafka
    assertThat(Duration.ofNanos(slowestWriteNanos)).isLessThan(MAX_BLOCK);
    // and nothing was acknowledged or lost: every event is still in its document
    assertThat(pendingEventIds()).containsExactlyInAnyOrderElementsOf(written);

    // a broker answers again (the same collection, a producer that reaches one): the sweeper sends everything
    Producer<String, String> reachable = producer(SharedInfra.kafkaBootstrapServers(), Duration.ofSeconds(60));
    try (Outbox back = new Outbox(collection, reachable, new OutboxSettings(Duration.ofMillis(200),
        Duration.ofSeconds(1), 100), Clock.systemUTC()).start()) {
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(pendingEventIds()).isEmpty());
    } finally {
      reachable.close();
    }
    assertThat(publishedEventIds(written.size())).containsExactlyInAnyOrderElementsOf(written);
  }

  private List<String> pendingEventIds() {
    List<String> ids = new ArrayList<>();
    for (Document document : collection.find()) {
      document.getList(Outbox.EVENTS, Document.class, List.of()).forEach(e -> ids.add(e.getString("eventId")));
    }
    return ids;
  }

  /** The distinct eventIds on this test's topic (the sweeper may send one twice; consumers deduplicate). */
  private Set<String> publishedEventIds(int expected) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    Set<String> ids = new HashSet<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (ids.size() < expected && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200))
            .forEach(r -> ids.add(JSON.readTree(r.value()).get("eventId").stringValue()));
      }
    }
    return ids;
  }

  private OutboxEvent event(String key) {
    return OutboxEvent.of(topic, key, EventEnvelope.create("test.happened", "org-1", Map.of("key", key)), JSON);
  }

  private static Producer<String, String> producer(String bootstrap, Duration maxBlock) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) maxBlock.toMillis());
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    return new KafkaProducer<>(props);
  }

  /** A port nothing listens on (bound, then released). */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
