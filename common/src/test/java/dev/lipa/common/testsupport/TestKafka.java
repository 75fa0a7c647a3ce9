package dev.lipa.common.testsupport;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes records on the shared broker as the platform's producers do (text keys and values), in order. Every record
 * it sends carries the header {@value #INJECTED}: what a test put on a topic (a marker, a hostile record, an event
 * playing another service's part) is not held to the event contracts that {@link TopicRecorder} checks the
 * platform's own records against.
 */
public final class TestKafka {

  /** The header marking a record a test sent, not a producer of the platform. */
  public static final String INJECTED = "lipa-test-injected";

  private static KafkaProducer<String, String> producer;
  private static Admin admin;

  private TestKafka() {
  }

  /** Sends the values with one key (so to one partition, in this order) and waits until the broker has them all. */
  public static void publish(String topic, String key, String... values) {
    for (String value : values) {
      send(topic, key, value);
    }
  }

  /** Sends one record and waits until the broker has it; its partition and offset say where it is. */
  public static RecordMetadata send(String topic, String key, String value) {
    return send(new ProducerRecord<>(topic, key, value));
  }

  /** Sends one record (to the partition it names, if it names one) and waits until the broker has it. */
  public static RecordMetadata send(ProducerRecord<String, String> record) {
    RecordHeaders headers = new RecordHeaders(record.headers().toArray());
    headers.add(INJECTED, new byte[] {1});
    try {
      return producer().send(new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(),
          record.key(), record.value(), headers)).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not publish to " + record.topic(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Waits until the consumer group has committed an offset past the record: its listener has returned for it (and for
   * every earlier record of the partition). The positive sign that a record was read, where "nothing changed" alone
   * cannot tell a record that was ignored from one that was not read yet.
   *
   * @throws AssertionError when the group has not got past the record within {@code atMost}
   */
  public static void awaitConsumed(String groupId, RecordMetadata record, Duration atMost) {
    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
    Instant deadline = Instant.now().plus(atMost);
    while (true) {
      long committed = committed(groupId, partition);
      if (committed > record.offset()) {
        return;
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("consumer group " + groupId + " did not get past offset " + record.offset() + " of "
            + partition + " within " + atMost + " (committed: " + committed + ")");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** The group's committed offset on the partition (the next record it will read), -1 when it has none. */
  public static long committed(String groupId, TopicPartition partition) {
    try {
      Map<TopicPartition, OffsetAndMetadata> offsets = admin().listConsumerGroupOffsets(groupId)
          .partitionsToOffsetAndMetadata().get();
      OffsetAndMetadata offset = offsets.get(partition);
      return offset == null ? -1 : offset.offset();
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not read the offsets of " + groupId, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static synchronized KafkaProducer<String, String> producer() {
    if (producer == null) {
      Properties props = new Properties();
      props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
      producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }
    return producer;
  }

  private static synchronized Admin admin() {
    if (admin == null) {
      admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers()));
    }
    return admin;
  }
}
