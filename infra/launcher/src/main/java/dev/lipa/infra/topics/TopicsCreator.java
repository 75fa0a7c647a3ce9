package dev.lipa.infra.topics;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates the platform's topics from their one declaration ({@link TopicDeclarations}) on a running cluster, before
 * any service starts (the launcher's brokers have automatic topic creation off). Run again, it creates what is
 * missing, raises partitions that are fewer than declared and sets every declared config; it never lowers
 * partitions or changes an existing topic's replication (Kafka cannot do the first, the second is a reassignment).
 *
 * <p>Usage: {@code TopicsCreator <bootstrapServers> <topics.yaml> <brokers> [timeoutSeconds]}: waits until the
 * cluster has {@code brokers} live brokers, so a cluster still starting never gets topics with too few replicas.
 */
public final class TopicsCreator {

  private TopicsCreator() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 3 || args.length > 4) {
      System.err.println("usage: TopicsCreator <bootstrapServers> <topics.yaml> <brokers> [timeoutSeconds]");
      System.exit(2);
    }
    try {
      TopicDeclarations declarations = TopicDeclarations.read(Path.of(args[1]));
      Duration timeout = Duration.ofSeconds(args.length == 4 ? Long.parseLong(args[3]) : 120);
      for (String line : create(args[0], declarations, Integer.parseInt(args[2]), timeout)) {
        System.out.println(line);
      }
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("topics: " + e.getMessage());
      System.exit(1);
    }
  }

  /** Creates or brings up to date every declared topic; returns one line per topic saying what was done. */
  public static List<String> create(String bootstrapServers, TopicDeclarations declarations, int brokers,
      Duration timeout) throws InterruptedException, ExecutionException {
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    int apiTimeout = (int) Math.min(timeout.toMillis(), 60_000);
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, apiTimeout);
    properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(apiTimeout, 30_000));
    try (Admin admin = Admin.create(properties)) {
      awaitBrokers(admin, brokers, timeout);
      List<TopicDeclarations.TopicSpec> specs = declarations.on(brokers);
      Set<String> existing = admin.listTopics().names().get(timeout.toSeconds(), TimeUnit.SECONDS);
      List<String> report = new ArrayList<>();
      List<NewTopic> missing = new ArrayList<>();
      for (TopicDeclarations.TopicSpec spec : specs) {
        if (!existing.contains(spec.name())) {
          missing.add(new NewTopic(spec.name(), spec.partitions(), spec.replicationFactor()).configs(spec.configs()));
        }
      }
      for (var entry : admin.createTopics(missing).values().entrySet()) {
        try {
          entry.getValue().get();
          report.add("created " + entry.getKey());
        } catch (ExecutionException e) {
          // another launcher (or auth-service's own declaration of its compacted topic) got there first: updated below
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
      bringUpToDate(admin, specs, report);
      return report;
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("the cluster at " + bootstrapServers + " did not answer in " + timeout, e);
    }
  }

  private static void bringUpToDate(Admin admin, List<TopicDeclarations.TopicSpec> specs, List<String> report)
      throws InterruptedException, ExecutionException {
    Map<String, TopicDescription> descriptions = describe(admin,
        specs.stream().map(TopicDeclarations.TopicSpec::name).toList());
    Map<String, NewPartitions> morePartitions = new HashMap<>();
    Map<ConfigResource, Collection<AlterConfigOp>> configs = new HashMap<>();
    for (TopicDeclarations.TopicSpec spec : specs) {
      TopicDescription description = descriptions.get(spec.name());
      int partitions = description.partitions().size();
      if (partitions < spec.partitions()) {
        morePartitions.put(spec.name(), NewPartitions.increaseTo(spec.partitions()));
        report.add("partitions of " + spec.name() + " raised from " + partitions + " to " + spec.partitions());
      }
      int replicas = description.partitions().getFirst().replicas().size();
      if (replicas != spec.replicationFactor()) {
        report.add("WARNING " + spec.name() + " has " + replicas + " replicas, declared " + spec.replicationFactor()
            + " (an existing topic's replication is changed by a partition reassignment, not here)");
      }
      configs.put(new ConfigResource(ConfigResource.Type.TOPIC, spec.name()), spec.configs().entrySet().stream()
          .map(e -> new AlterConfigOp(new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET))
          .toList());
    }
    if (!morePartitions.isEmpty()) {
      admin.createPartitions(morePartitions).all().get();
    }
    admin.incrementalAlterConfigs(configs).all().get();
  }

  /** Describes the topics, waiting out the moment in which a topic just created is not in every broker's metadata. */
  private static Map<String, TopicDescription> describe(Admin admin, List<String> names)
      throws InterruptedException, ExecutionException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      try {
        Map<String, TopicDescription> descriptions = admin.describeTopics(names).allTopicNames().get();
        if (descriptions.values().stream().allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null))
            || System.nanoTime() > deadline) {
          return descriptions;
        }
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
          throw e;
        }
      }
      Thread.sleep(100);
    }
  }

  private static void awaitBrokers(Admin admin, int brokers, Duration timeout)
      throws InterruptedException, java.util.concurrent.TimeoutException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int live = 0;
    while (System.nanoTime() < deadline) {
      try {
        live = admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).size();
        if (live >= brokers) {
          return;
        }
      } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
        // not reachable yet: the brokers are still starting
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(live + " live brokers after " + timeout + ", " + brokers + " expected: topics"
        + " created now would have too few replicas");
  }
}
