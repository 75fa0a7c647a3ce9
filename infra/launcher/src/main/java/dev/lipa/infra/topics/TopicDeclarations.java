package dev.lipa.infra.topics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The platform's topics as {@code infra/deploy/helm/lipa/topics.yaml} declares them, with every consumer group's
 * dead-letter topic ({@code <topic>.<group>.dlt}, the rule of common's DeadLetterTopics) derived from it.
 *
 * @param topics the declared topics, in the file's order
 * @param replicationFactor the declared replication factor (a cluster of fewer brokers lowers it, see {@link #on})
 * @param minInsyncReplicas the declared {@code min.insync.replicas}
 * @param deadLetterRetentionMs how long a dead-letter topic keeps its records
 */
public record TopicDeclarations(List<Topic> topics, int replicationFactor, int minInsyncReplicas,
    long deadLetterRetentionMs) {

  private static final Set<String> TOPIC_KEYS = Set.of("name", "description", "cleanupPolicy", "consumerGroups",
      "partitions", "retentionMs");
  private static final Set<String> DEFAULT_KEYS = Set.of("partitions", "replicationFactor", "minInsyncReplicas",
      "retentionMs", "deadLetterRetentionMs");

  /**
   * One declared topic.
   *
   * @param name the topic's name
   * @param partitions its partitions (at most this many replicas of one consumer group do work)
   * @param cleanupPolicy {@code delete} or {@code compact}
   * @param retentionMs how long a record is kept (delete policy)
   * @param consumerGroups the consumer groups that read it, each with its dead-letter topic
   */
  public record Topic(String name, int partitions, String cleanupPolicy, long retentionMs,
      List<String> consumerGroups) {
  }

  /**
   * One topic to create, dead-letter topics included, with what it must be on a cluster of a given size.
   *
   * @param name the topic's name
   * @param partitions its partitions
   * @param replicationFactor its replicas
   * @param configs its topic-level configs (cleanup.policy, min.insync.replicas, retention.ms)
   */
  public record TopicSpec(String name, int partitions, short replicationFactor, Map<String, String> configs) {
  }

  /** Reads and checks the file: an unknown key, a duplicate name or a missing value is an error, not a default. */
  public static TopicDeclarations read(Path file) {
    JsonNode root;
    try {
      root = YAMLMapper.builder().build().readTree(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    JsonNode defaults = root.path("defaults");
    requireKnownKeys(defaults, DEFAULT_KEYS, "defaults");
    int partitions = positiveInt(defaults, "partitions", "defaults");
    long retention = positiveLong(defaults, "retentionMs", "defaults");
    List<Topic> topics = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    if (!root.path("topics").isArray() || root.path("topics").isEmpty()) {
      throw new IllegalArgumentException(file + ": no topics declared");
    }
    for (JsonNode node : root.path("topics")) {
      String name = node.path("name").asString("");
      if (!name.matches("[a-z0-9][a-z0-9.-]*[a-z0-9]")) {
        throw new IllegalArgumentException(file + ": a topic without a valid name: " + node);
      }
      requireKnownKeys(node, TOPIC_KEYS, name);
      if (!names.add(name)) {
        throw new IllegalArgumentException(file + ": topic " + name + " is declared twice");
      }
      String policy = node.path("cleanupPolicy").asString("");
      if (!policy.equals("delete") && !policy.equals("compact")) {
        throw new IllegalArgumentException(name + ": cleanupPolicy must be delete or compact, not '" + policy + "'");
      }
      List<String> groups = new ArrayList<>();
      for (JsonNode group : node.path("consumerGroups")) {
        if (groups.contains(group.asString())) {
          throw new IllegalArgumentException(name + ": consumer group " + group.asString() + " is named twice");
        }
        groups.add(group.asString());
      }
      topics.add(new Topic(name, node.has("partitions") ? positiveInt(node, "partitions", name) : partitions, policy,
          node.has("retentionMs") ? positiveLong(node, "retentionMs", name) : retention, List.copyOf(groups)));
    }
    int replication = positiveInt(defaults, "replicationFactor", "defaults");
    int minInsync = positiveInt(defaults, "minInsyncReplicas", "defaults");
    if (minInsync > replication) {
      throw new IllegalArgumentException("defaults: minInsyncReplicas " + minInsync + " above replicationFactor "
          + replication + ": no write could ever be acknowledged with acks=all");
    }
    return new TopicDeclarations(List.copyOf(topics), replication, minInsync,
        positiveLong(defaults, "deadLetterRetentionMs", "defaults"));
  }

  /**
   * Every topic to create on a cluster of {@code brokers} brokers, dead-letter topics after their topic. Fewer
   * brokers than the declared replication factor (the local single broker) lower the replication to the number of
   * brokers and {@code min.insync.replicas} with it, never below 1.
   */
  public List<TopicSpec> on(int brokers) {
    short replication = (short) Math.min(replicationFactor, brokers);
    String minInsync = Integer.toString(Math.min(minInsyncReplicas, replication));
    List<TopicSpec> specs = new ArrayList<>();
    for (Topic topic : topics) {
      specs.add(new TopicSpec(topic.name(), topic.partitions(), replication,
          configs(topic.cleanupPolicy(), minInsync, topic.retentionMs())));
      for (String group : topic.consumerGroups()) {
        // the dead letters of a compacted topic are kept whole: a replay needs every one, not the latest per key
        specs.add(new TopicSpec(deadLetterTopic(topic.name(), group), topic.partitions(), replication,
            configs("delete", minInsync, deadLetterRetentionMs)));
      }
    }
    return specs;
  }

  /** The dead-letter topic of a consumer group: the same rule as common's DeadLetterTopics. */
  public static String deadLetterTopic(String topic, String group) {
    return topic + "." + group + ".dlt";
  }

  private static Map<String, String> configs(String policy, String minInsync, long retentionMs) {
    Map<String, String> configs = new LinkedHashMap<>();
    configs.put("cleanup.policy", policy);
    configs.put("min.insync.replicas", minInsync);
    configs.put("retention.ms", Long.toString(retentionMs));
    return Map.copyOf(configs);
  }

  private static void requireKnownKeys(JsonNode node, Set<String> known, String where) {
    for (String key : node.propertyNames()) {
      if (!known.contains(key)) {
        throw new IllegalArgumentException(where + ": unknown key '" + key + "' (known: " + known + ")");
      }
    }
  }

  private static int positiveInt(JsonNode node, String key, String where) {
    long value = positiveLong(node, key, where);
    if (value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(where + ": " + key + " too large");
    }
    return (int) value;
  }

  private static long positiveLong(JsonNode node, String key, String where) {
    JsonNode value = node.path(key);
    if (!value.isIntegralNumber() || value.asLong() < 1) {
      throw new IllegalArgumentException(where + ": " + key + " must be a whole number from 1, not " + value);
    }
    return value.asLong();
  }
}
