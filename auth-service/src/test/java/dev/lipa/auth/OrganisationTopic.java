package dev.lipa.auth;

import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.EventContracts;
import dev.lipa.common.testsupport.SharedInfra;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A test consumer recording {@value Topics#ORGANISATIONS} from the beginning, for the whole test JVM. Every record a
 * test reads through it must be an {@code organisation.upserted} the AsyncAPI document describes
 * ({@link EventContracts}): auth-service is the topic's only producer.
 */
public final class OrganisationTopic {

  private static final List<ConsumerRecord<String, String>> RECORDS = new CopyOnWriteArrayList<>();
  private static volatile boolean started;

  private OrganisationTopic() {
  }

  public static synchronized void start() {
    if (started) {
      return;
    }
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "auth-tests-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props);
    consumer.subscribe(List.of(Topics.ORGANISATIONS));
    Thread poller = new Thread(() -> {
      while (true) {
        consumer.poll(Duration.ofMillis(100)).forEach(RECORDS::add);
      }
    }, "organisation-topic-recorder");
    poller.setDaemon(true);
    poller.start();
    started = true;
  }

  /** Records seen so far with this key (an organisationId), in the order the partition holds them. */
  public static List<ConsumerRecord<String, String>> records(String organisationId) {
    List<ConsumerRecord<String, String>> records =
        RECORDS.stream().filter(r -> organisationId.equals(r.key())).toList();
    records.stream().filter(r -> r.value() != null)
        .forEach(r -> EventContracts.assertConforms(Topics.ORGANISATIONS, r.value()));
    return records;
  }
}
