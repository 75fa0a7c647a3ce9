package dev.lipa.common.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/**
 * The containers profile works: where a container engine answers and the profile is on, the shared infrastructure is
 * a Kafka container that acknowledges and delivers a record, and a MongoDB replica set that takes a majority write.
 * Everywhere else this is skipped, saying why (in this repository's CI: no container engine).
 */
class ContainersTests {

  @Test
  void theProfileRunsTheTestsAgainstAKafkaContainerAndAMongoReplicaSet() throws Exception {
    assumeTrue(Containers.engineAvailable(), Containers.WHY_NOT);
    assumeTrue(Containers.wanted(), "the containers profile is off: ./mvnw verify -Pcontainers runs the integration "
        + "tests against a Kafka container and a MongoDB replica set");

    String topic = "containers-" + UUID.randomUUID();
    String servers = SharedInfra.kafkaBootstrapServers();
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers, ProducerConfig.ACKS_CONFIG, "all"),
        new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(topic, "k", "v")).get();
    }
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers, ConsumerConfig.GROUP_ID_CONFIG, topic,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      ConsumerRecords<String, String> records = ConsumerRecords.empty();
      for (int i = 0; i < 30 && records.isEmpty(); i++) {
        records = consumer.poll(Duration.ofSeconds(1));
      }
      assertThat(records.count()).isEqualTo(1);
    }

    try (MongoClient client = MongoClients.create(SharedInfra.mongoUri())) {
      Document hello = client.getDatabase("admin").runCommand(new Document("hello", 1));
      assertThat(hello.getString("setName")).as("a replica set").isNotBlank();
      MongoCollection<Document> things = client.getDatabase("containers").getCollection("things")
          .withWriteConcern(WriteConcern.MAJORITY);
      things.insertOne(new Document("_id", topic));
      assertThat(things.countDocuments(new Document("_id", topic))).isEqualTo(1);
    }
  }
}
