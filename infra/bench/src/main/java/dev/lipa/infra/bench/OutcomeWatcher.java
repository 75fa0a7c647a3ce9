package dev.lipa.infra.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the collections domain events ({@code stk.succeeded} / {@code stk.failed} on {@code payments.collections.v1},
 * or on the reference payment's topic) from the end of the topic as it was when the bench started, keeping each
 * requestId's first {@code occurredAt}: the moment the rail's outcome was applied, from which the time to the callback
 * is measured. It joins no consumer group (it assigns the partitions itself), so it commits nothing and disturbs no
 * service.
 */
final class OutcomeWatcher implements AutoCloseable {

  static final String TOPIC = "payments.collections.v1";

  private final KafkaConsumer<String, String> consumer;
  private final Map<String, Long> outcomes = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean running = true;

  OutcomeWatcher(String bootstrap) {
    this(bootstrap, TOPIC);
  }

  OutcomeWatcher(String bootstrap, String topic) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "lipa-bench-" + UUID.randomUUID());
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    consumer = new KafkaConsumer<>(properties);
    List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(15)).stream()
        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position); // fix the starting point now, before any load
    thread = Thread.ofPlatform().daemon().name("bench-outcomes").start(this::poll);
  }

  private void poll() {
    try {
      while (running) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          String type = Json.field(record.value(), "type");
          if ("stk.succeeded".equals(type) || "stk.failed".equals(type)) {
            String occurredAt = Json.field(record.value(), "occurredAt");
            if (record.key() != null && occurredAt != null) {
              outcomes.putIfAbsent(record.key(), Instant.parse(occurredAt).toEpochMilli());
            }
          }
        }
      }
    } catch (WakeupException e) {
      // closing
    } finally {
      consumer.close(Duration.ofSeconds(2));
    }
  }

  /** When the outcome of this request was applied (epoch millis), or null when its event was not seen. */
  Long outcomeAt(String requestId) {
    return outcomes.get(requestId);
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    thread.join(5000);
  }
}
