package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.lipa.common.events.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A test that reads what the platform published through {@link TopicRecorder} fails when a record breaks its
 * contract in docs/asyncapi.yaml, and what a test itself sent through {@link TestKafka} is left alone.
 */
class TopicRecorderContractsIntegrationTests {

  private static final String VALID = """
      {"eventId":"%s","type":"stk.accepted","version":1,"occurredAt":"2026-03-01T09:00:03.120Z",
       "organisationId":"org-1","data":{"requestId":"%s","referenceId":null,"phoneNumber":"254708374149",
       "amount":150,"currency":"KSH","status":"PENDING"}}""";

  private static void publishAsAProducerOfThePlatform(String topic, String key, String value) throws Exception {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers(),
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    }
  }

  private static void awaitRecorded(String topic, String key) {
    await().atMost(Duration.ofSeconds(30)).until(() -> {
      try {
        return !TopicRecorder.records(topic, key).isEmpty();
      } catch (AssertionError broken) {
        return true;
      }
    });
  }

  @Test
  void aConformingEventIsReadAsUsual() throws Exception {
    TopicRecorder.start();
    String key = UUID.randomUUID().toString();
    publishAsAProducerOfThePlatform(Topics.COLLECTIONS, key, VALID.formatted(UUID.randomUUID(), key));

    awaitRecorded(Topics.COLLECTIONS, key);

    assertThat(TopicRecorder.records(Topics.COLLECTIONS, key)).hasSize(1);
  }

  @Test
  void anEventOfAVersionTheDocumentLacksFailsTheTestThatReadsIt() throws Exception {
    TopicRecorder.start();
    String key = UUID.randomUUID().toString();
    publishAsAProducerOfThePlatform(Topics.COLLECTIONS, key,
        VALID.formatted(UUID.randomUUID(), key).replace("\"version\":1", "\"version\":2"));

    awaitRecorded(Topics.COLLECTIONS, key);

    assertThatThrownBy(() -> TopicRecorder.records(Topics.COLLECTIONS, key)).isInstanceOf(AssertionError.class)
        .hasMessageContaining("stk.accepted v2 is not in docs/asyncapi.yaml");
    assertThatThrownBy(() -> TopicRecorder.records(Topics.COLLECTIONS, key, "stk.accepted"))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void anEventWhoseDataBreaksItsSchemaFailsTheTestThatReadsIt() throws Exception {
    TopicRecorder.start();
    String key = UUID.randomUUID().toString();
    publishAsAProducerOfThePlatform(Topics.COLLECTIONS, key,
        VALID.formatted(UUID.randomUUID(), key).replace("\"amount\":150", "\"amount\":\"150\""));

    awaitRecorded(Topics.COLLECTIONS, key);

    assertThatThrownBy(() -> TopicRecorder.records(Topics.COLLECTIONS, key)).isInstanceOf(AssertionError.class)
        .hasMessageContaining("amount");
  }

  @Test
  void whatATestSentItselfIsNotHeldToTheContract() {
    TopicRecorder.start();
    String key = UUID.randomUUID().toString();
    TestKafka.send(Topics.COLLECTIONS, key, "{\"type\":\"test.hostile\",\"amount\":\"1e100000000\"}");

    awaitRecorded(Topics.COLLECTIONS, key);

    assertThat(TopicRecorder.records(Topics.COLLECTIONS, key)).hasSize(1);
  }
}
