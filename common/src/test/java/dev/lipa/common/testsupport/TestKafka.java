package dev.lipa.common.testsupport;

import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes records on the shared broker as the platform's producers do (text keys and values), in order. */
public final class TestKafka {

  private static KafkaProducer<String, String> producer;

  private TestKafka() {
  }

  /** Sends the values with one key (so to one partition, in this order) and waits until the broker has them all. */
  public static void publish(String topic, String key, String... values) {
    try {
      for (String value : values) {
        producer().send(new ProducerRecord<>(topic, key, value)).get();
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not publish to " + topic, e);
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
}
