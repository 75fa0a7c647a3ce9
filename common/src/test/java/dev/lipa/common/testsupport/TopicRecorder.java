package dev.lipa.common.testsupport;

import dev.lipa.common.events.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** A test consumer that records everything on the platform's topics from the beginning, for the whole test JVM. */
public final class TopicRecorder {

  private static final List<ConsumerRecord<String, String>> RECORDS = new CopyOnWriteArrayList<>();
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
    consumer.subscribe(List.of(Topics.COLLECTIONS, Topics.PAYOUTS, Topics.CHECKOUT, Topics.ORGANISATIONS,
        Topics.CALLBACKS));
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
    return RECORDS.stream().filter(r -> r.topic().equals(topic) && key.equals(r.key())).toList();
  }
}
