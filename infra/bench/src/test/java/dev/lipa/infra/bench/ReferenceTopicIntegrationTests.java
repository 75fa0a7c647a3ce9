package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench's reference topic on a real broker configured as the launcher's are, with automatic topic creation off:
 * the bench creates its topic itself, like the platform's STK topic, and the reference pipeline starts and produces.
 */
class ReferenceTopicIntegrationTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static String bootstrap;
  private static Admin admin;

  @TempDir
  Path var;

  @BeforeAll
  static void connectToABrokerThatCreatesNoTopics() {
    // a broker that creates no topic on first use, which is what is tested away here
    bootstrap = NoTopicsBroker.bootstrapServers();
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    admin = Admin.create(properties);
  }

  @AfterAll
  static void disconnect() {
    admin.close();
  }

  @Test
  void theBrokerCreatesNoTopicWhenAProducerAsksForOne() {
    // what makes the tests below mean something: without the bench's own creation the pipeline could not produce
    Properties properties = ReferencePipeline.producerProperties(bootstrap);
    properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 3_000);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
      assertThatThrownBy(() -> producer.partitionsFor("it.never-created.v1")).isInstanceOf(TimeoutException.class);
    }
  }

  @Test
  void createsTheTopicWithThePartitionsOfThePlatformsStkTopicAndEveryBrokerAsReplica() throws Exception {
    admin.createTopics(List.of(new NewTopic("it.stk-a.v1", 5, (short) 1))).all().get(30, TimeUnit.SECONDS);
    // as the platform's topic is when the bench starts: created, and known to the broker's metadata
    await().atMost(TIMEOUT).ignoreExceptions().until(() -> describe("it.stk-a.v1").partitions().size() == 5);

    String done = ReferenceTopic.ensure(admin, "it.reference-a.v1", "it.stk-a.v1", TIMEOUT);

    assertThat(done).isEqualTo("created it.reference-a.v1 (5 partitions, replication 1)");
    TopicDescription description = describe("it.reference-a.v1");
    assertThat(description.partitions()).hasSize(5)
        .allSatisfy(partition -> assertThat(partition.replicas()).hasSize(1));
    assertThat(minInsyncReplicas("it.reference-a.v1")).isEqualTo("1");
    assertThat(produceTo("it.reference-a.v1").topic()).isEqualTo("it.reference-a.v1");
  }

  @Test
  void takesTheDeclaredThreePartitionsWhenThePlatformsTopicIsMissing() throws Exception {
    ReferenceTopic.ensure(admin, "it.reference-b.v1", "it.stk-missing.v1", TIMEOUT);

    assertThat(describe("it.reference-b.v1").partitions()).hasSize(ReferenceTopic.DEFAULT_PARTITIONS);
  }

  @Test
  void creatingItAgainKeepsTheTopicAndItsRecords() throws Exception {
    ReferenceTopic.ensure(admin, "it.reference-c.v1", "it.stk-missing.v1", TIMEOUT);
    produceTo("it.reference-c.v1");

    String again = ReferenceTopic.ensure(admin, "it.reference-c.v1", "it.stk-missing.v1", TIMEOUT);

    assertThat(again).isEqualTo("it.reference-c.v1 exists");
    produceTo("it.reference-c.v1");
    long records = admin.listOffsets(describe("it.reference-c.v1").partitions().stream().collect(Collectors.toMap(
            p -> new TopicPartition("it.reference-c.v1", p.partition()), p -> OffsetSpec.latest())))
        .all().get(30, TimeUnit.SECONDS).values().stream().mapToLong(info -> info.offset()).sum();
    assertThat(records).as("the first record survived the second creation").isEqualTo(2);
  }

  @Test
  void theReferencePipelineStartsOnABrokerThatCreatesNoTopicsAndCreatesBothOfItsTopics() throws Exception {
    // the bench's own start of the pipeline (its JVM, its arguments); the store is not reached before a request
    BenchOptions options = BenchOptions.parse(new String[] {"--var", var.toString(), "--kafka",
        bootstrap, "--mongo", "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=1000"});

    try (ReferenceProcess reference = ReferenceProcess.start(options, Duration.ofSeconds(3),
        WebhookSigning.newSecret())) {
      assertThat(reference.url()).endsWith(ReferencePipeline.PATH);
    }

    for (String topic : ReferenceTopic.topics()) {
      assertThat(describe(topic).partitions()).as(topic).hasSize(ReferenceTopic.DEFAULT_PARTITIONS);
      assertThat(produceTo(topic).topic()).isEqualTo(topic);
    }
  }

  private static TopicDescription describe(String topic) throws Exception {
    return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
  }

  private static String minInsyncReplicas(String topic) throws Exception {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource)
        .get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value();
  }

  /** One record, with the reference pipeline's own producer settings (idempotent, acks=all), acknowledged. */
  private static RecordMetadata produceTo(String topic) throws Exception {
    Properties properties = ReferencePipeline.producerProperties(bootstrap);
    properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
      return producer.send(new ProducerRecord<>(topic, "key", "value")).get(30, TimeUnit.SECONDS);
    }
  }
}
