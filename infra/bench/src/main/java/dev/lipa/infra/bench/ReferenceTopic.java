package dev.lipa.infra.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates the reference pipeline's topics through Kafka's AdminClient before the pipeline produces to them: the
 * launcher's brokers create no topic on their own, in either mode. Each topic is made like the platform topic it
 * stands for ({@value ReferencePipeline#TOPIC} like the STK topic, {@value ReferencePipeline#CALLBACKS_TOPIC} like
 * the callback requests' topic), so that the reference does the same work per record: that topic's partitions (3, as
 * topics.yaml declares, when it does not exist), replication {@code min(3, brokers)} and {@code min.insync.replicas}
 * {@code min(2, replication)}, as the launcher's TopicsCreator lowers topics.yaml's values on fewer brokers.
 */
final class ReferenceTopic {

  /** The platform's topic of STK pushes, whose partitions the reference topic copies. */
  static final String PLATFORM_STK_TOPIC = OutcomeWatcher.TOPIC;
  /** The platform's topic of callback requests, whose partitions the reference's callbacks topic copies. */
  static final String PLATFORM_CALLBACKS_TOPIC = "payments.callbacks.v1";
  /** topics.yaml's default partitions, for a broker on which the platform's topics were not created. */
  static final int DEFAULT_PARTITIONS = 3;

  private ReferenceTopic() {
  }

  /** Creates the reference topics on the cluster at {@code bootstrap} unless they exist; returns what was done. */
  static String ensure(String bootstrap, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    try (Admin admin = Admin.create(properties)) {
      return ensure(admin, ReferencePipeline.TOPIC, PLATFORM_STK_TOPIC, timeout) + "; "
          + ensure(admin, ReferencePipeline.CALLBACKS_TOPIC, PLATFORM_CALLBACKS_TOPIC, timeout);
    }
  }

  /** The reference's topics, whose records the bench counts as the reference's (and never as the platform's). */
  static Set<String> topics() {
    return Set.of(ReferencePipeline.TOPIC, ReferencePipeline.CALLBACKS_TOPIC);
  }

  /**
   * Creates {@code topic} with the partitions of {@code likeTopic} unless it exists (an existing topic is left as it
   * is: a second bench, or one that raced this one, made it the same way).
   */
  static String ensure(Admin admin, String topic, String likeTopic, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    long seconds = Math.max(1, timeout.toSeconds());
    int brokers = admin.describeCluster().nodes().get(seconds, TimeUnit.SECONDS).size();
    int partitions = partitionsOf(admin, likeTopic, seconds);
    short replication = replication(brokers);
    NewTopic newTopic = new NewTopic(topic, partitions, replication).configs(
        Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minInsyncReplicas(replication))));
    String done;
    try {
      admin.createTopics(List.of(newTopic)).all().get(seconds, TimeUnit.SECONDS);
      done = "created " + topic + " (" + partitions + " partitions, replication " + replication + ")";
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e;
      }
      done = topic + " exists";
    }
    awaitLeaders(admin, topic, timeout);
    return done;
  }

  /**
   * Waits until every partition of a topic has a leader: a topic just created is not in every broker's metadata at
   * once, and the pipeline's first produce should not be the one to wait for it.
   */
  private static void awaitLeaders(Admin admin, String topic, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
            .get(Math.max(1, timeout.toSeconds()), TimeUnit.SECONDS).get(topic);
        if (description.partitions().stream().allMatch(partition -> partition.leader() != null)) {
          return;
        }
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw e;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("the topic " + topic + " has no leader for every partition after " + timeout);
      }
      Thread.sleep(100);
    }
  }

  /** The replication of the reference topic on a cluster of {@code brokers}: topics.yaml's 3, or every broker. */
  static short replication(int brokers) {
    if (brokers < 1) {
      throw new IllegalStateException("the Kafka cluster reports no live broker");
    }
    return (short) Math.min(3, brokers);
  }

  /** Its {@code min.insync.replicas}: topics.yaml's 2, never above the replication. */
  static int minInsyncReplicas(short replication) {
    return Math.min(2, replication);
  }

  private static int partitionsOf(Admin admin, String topic, long seconds)
      throws InterruptedException, ExecutionException, TimeoutException {
    try {
      return admin.describeTopics(List.of(topic)).allTopicNames().get(seconds, TimeUnit.SECONDS)
          .get(topic).partitions().size();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return DEFAULT_PARTITIONS;
      }
      throw e;
    }
  }
}
