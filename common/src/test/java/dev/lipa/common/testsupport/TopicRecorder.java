package dev.lipa.common.testsupport;

import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import tools.jackson.databind.json.JsonMapper;

/**
 * A test consumer that records everything on the platform's topics from the beginning, for the whole test JVM. Every
 * record a test reads through it is held to its contract first: a record the platform produced (not one a test sent
 * through {@link TestKafka}) must be an event the AsyncAPI document describes, valid against its schema
 * ({@link EventContracts}), or the test reading it fails.
 */
public final class TopicRecorder {

  private static final List<ConsumerRecord<String, String>> RECORDS = new CopyOnWriteArrayList<>();
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Set<ConsumerRecord<String, String>> CONFORMING = ConcurrentHashMap.newKeySet();
  private static volatile boolean started;

  private TopicRecorder() {
  }

  public static synchronized void start() {
    if (started) {
      return;
    }
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "topic-recorder-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props);
    // the live stack's topics too (live.payments.*.v1): the live-mode tests read them
    StackEnvironment live = StackEnvironment.LIVE;
    consumer.subscribe(List.of(Topics.COLLECTIONS, Topics.PAYOUTS, Topics.CHECKOUT, Topics.ORGANISATIONS,
        Topics.CALLBACKS, live.topic(Topics.COLLECTIONS), live.topic(Topics.PAYOUTS), live.topic(Topics.CHECKOUT),
        live.topic(Topics.CALLBACKS)));
    Thread poller = new Thread(() -> {
      while (true) {
        consumer.poll(Duration.ofMillis(100)).forEach(RECORDS::add);
      }
    }, "topic-recorder");
    poller.setDaemon(true);
    poller.start();
    started = true;
  }

  /** Records seen so far on a topic with this key. */
  public static List<ConsumerRecord<String, String>> records(String topic, String key) {
    List<ConsumerRecord<String, String>> records =
        RECORDS.stream().filter(r -> r.topic().equals(topic) && key.equals(r.key())).toList();
    records.forEach(TopicRecorder::assertConforms);
    return records;
  }

  /**
   * Fails when a record the platform produced is not an event of the AsyncAPI document on its topic; records a test
   * sent ({@link TestKafka#INJECTED}) and tombstones are not events. Each record is checked once.
   */
  static void assertConforms(ConsumerRecord<String, String> record) {
    if (record.value() == null || record.headers().lastHeader(TestKafka.INJECTED) != null
        || CONFORMING.contains(record)) {
      return;
    }
    EventContracts.assertConforms(record.topic(), record.value());
    CONFORMING.add(record);
  }

  /** Records seen so far on a topic with this key whose event envelope has this {@code type}. */
  public static List<ConsumerRecord<String, String>> records(String topic, String key, String type) {
    return records(topic, key).stream()
        .filter(r -> type.equals(JSON.readTree(r.value()).path("type").asString(""))).toList();
  }

  /**
   * The records of one type on a topic with this key, once the first has arrived (within 30 s) and a quiet spell
   * (1.5 s) has passed in which a second one would arrive: what a test counts to say an event was published once.
   */
  public static List<ConsumerRecord<String, String>> once(String topic, String key, String type) {
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !records(topic, key, type).isEmpty());
    Awaitility.await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> true);
    return records(topic, key, type);
  }
}
