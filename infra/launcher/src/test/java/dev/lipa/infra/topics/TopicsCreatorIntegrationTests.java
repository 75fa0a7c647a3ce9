package dev.lipa.infra.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.lipa.common.testsupport.SharedInfra;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The topic creation of ./platform up against a real broker (the shared single broker: replication lowered to 1). */
class TopicsCreatorIntegrationTests {

  @TempDir
  Path dir;

  private final String prefix = "t" + UUID.randomUUID().toString().substring(0, 8);
  private Admin admin;

  @BeforeEach
  void admin() {
    admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers()));
  }

  @AfterEach
  void close() {
    admin.close();
  }

  @Test
  void createsEveryDeclaredTopicAndEveryDeadLetterTopicWithItsPartitionsAndConfigs() throws Exception {
    List<String> report = TopicsCreator.create(SharedInfra.kafkaBootstrapServers(),
        TopicDeclarations.read(file(5)), 1, Duration.ofSeconds(60));

    assertThat(report).contains("created " + prefix + ".payments.v1", "created " + prefix + ".orgs.v1",
        "created " + prefix + ".payments.v1.ledger.dlt", "created " + prefix + ".payments.v1.rail.dlt",
        "created " + prefix + ".orgs.v1.directory.dlt");
    Map<String, TopicDescription> topics = admin.describeTopics(List.of(prefix + ".payments.v1",
        prefix + ".orgs.v1", prefix + ".payments.v1.ledger.dlt")).allTopicNames().get();
    assertThat(topics.get(prefix + ".payments.v1").partitions()).hasSize(5);
    assertThat(topics.get(prefix + ".orgs.v1").partitions()).hasSize(2);
    assertThat(topics.get(prefix + ".payments.v1.ledger.dlt").partitions()).hasSize(5);
    assertThat(topics.values()).allSatisfy(t -> assertThat(t.partitions().getFirst().replicas()).hasSize(1));
    assertThat(config(prefix + ".payments.v1")).containsEntry("cleanup.policy", "delete")
        .containsEntry("min.insync.replicas", "1").containsEntry("retention.ms", "604800000");
    assertThat(config(prefix + ".orgs.v1")).containsEntry("cleanup.policy", "compact");
    assertThat(config(prefix + ".orgs.v1.directory.dlt")).containsEntry("cleanup.policy", "delete")
        .containsEntry("retention.ms", "2419200000");
  }

  @Test
  void runTwiceCreatesNothingTwiceAndBringsAChangedTopicUpToDate() throws Exception {
    TopicsCreator.create(SharedInfra.kafkaBootstrapServers(), TopicDeclarations.read(file(3)), 1,
        Duration.ofSeconds(60));
    // someone changed a declared config by hand; the declaration then asks for more partitions
    admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, prefix + ".orgs.v1"),
        List.of(new org.apache.kafka.clients.admin.AlterConfigOp(
            new org.apache.kafka.clients.admin.ConfigEntry("cleanup.policy", "delete"),
            org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)))).all().get();
    // the change reaches the broker the creator reads from a moment after the controller acknowledged it: a creator
    // that read the old value would find nothing to bring up to date
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(config(prefix + ".orgs.v1"))
        .containsEntry("cleanup.policy", "delete"));

    List<String> report = TopicsCreator.create(SharedInfra.kafkaBootstrapServers(), TopicDeclarations.read(file(6)),
        1, Duration.ofSeconds(60));

    assertThat(report).noneMatch(line -> line.startsWith("created "))
        .contains("partitions of " + prefix + ".payments.v1 raised from 3 to 6");
    // the new partitions reach the broker's metadata a moment after the request is acknowledged
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(admin.describeTopics(
        Set.of(prefix + ".payments.v1")).allTopicNames().get().get(prefix + ".payments.v1").partitions()).hasSize(6));
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(config(prefix + ".orgs.v1"))
        .containsEntry("cleanup.policy", "compact"));
  }

  @Test
  void aClusterWithFewerBrokersThanAskedGetsNoTopicWithTooFewReplicas() throws Exception {
    // the cluster launcher asks for 3 brokers: one that has only 1 up must wait, then fail, not create at 1 replica
    assertThatThrownBy(() -> TopicsCreator.create(SharedInfra.kafkaBootstrapServers(),
        TopicDeclarations.read(file(3)), 3, Duration.ofSeconds(3)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("1 live brokers");
    assertThat(admin.listTopics().names().get()).noneMatch(name -> name.startsWith(prefix));
  }

  private Map<String, String> config(String topic) throws Exception {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
    return config.entries().stream().collect(java.util.stream.Collectors.toMap(e -> e.name(), e -> e.value()));
  }

  private Path file(int partitions) throws IOException {
    Path file = dir.resolve("topics.yaml");
    Files.writeString(file, """
        defaults:
          partitions: %d
          replicationFactor: 3
          minInsyncReplicas: 2
          retentionMs: 604800000
          deadLetterRetentionMs: 2419200000
        topics:
          - name: %s.payments.v1
            cleanupPolicy: delete
            consumerGroups: [ledger, rail]
          - name: %s.orgs.v1
            partitions: 2
            cleanupPolicy: compact
            consumerGroups: [directory]
        """.formatted(partitions, prefix, prefix));
    return file;
  }
}
