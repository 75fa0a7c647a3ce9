package dev.lipa.common.production;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the production guard read about one topic a service uses: its replication factor (the smallest of its
 * partitions') and its {@code min.insync.replicas}; both empty when the topic does not exist.
 */
public record TopicFacts(String topic, OptionalInt replicationFactor, OptionalInt minInsyncReplicas) {

  public static TopicFacts missing(String topic) {
    return new TopicFacts(topic, OptionalInt.empty(), OptionalInt.empty());
  }

  public static TopicFacts of(String topic, int replicationFactor, int minInsyncReplicas) {
    return new TopicFacts(topic, OptionalInt.of(replicationFactor), OptionalInt.of(minInsyncReplicas));
  }

  /** Why this topic is not safe enough under these thresholds, or empty when it is. */
  public Optional<String> shortfall(int minReplicationFactor, int minMinInsyncReplicas) {
    if (replicationFactor.isEmpty()) {
      return Optional.of("topic " + topic + " does not exist (create it from infra/deploy/helm/lipa/topics.yaml;"
          + " automatic topic creation is for local development only)");
    }
    StringBuilder why = new StringBuilder();
    if (replicationFactor.getAsInt() < minReplicationFactor) {
      why.append("replication factor ").append(replicationFactor.getAsInt()).append(" (at least ")
          .append(minReplicationFactor).append(" wanted)");
    }
    if (minInsyncReplicas.getAsInt() < minMinInsyncReplicas) {
      why.append(why.isEmpty() ? "" : " and ").append("min.insync.replicas ").append(minInsyncReplicas.getAsInt())
          .append(" (at least ").append(minMinInsyncReplicas).append(" wanted)");
    }
    return why.isEmpty() ? Optional.empty() : Optional.of("topic " + topic + " has " + why);
  }
}
