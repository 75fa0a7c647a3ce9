package dev.lipa.common.testsupport;

import org.opentest4j.TestAbortedException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.mongodb.MongoDBContainer;

/**
 * The containers behind {@link SharedInfra} under the {@code containers} Maven profile ({@code -Pcontainers}, which
 * sets {@code lipa.test.containers}): a real Kafka broker (the Apache image, KRaft) and a real MongoDB in a
 * single-node replica set, so the integration tests run against the products a production deployment uses instead
 * of the in-process broker and the embedded store. Started once per test JVM, on first use; stopped by
 * Testcontainers' reaper when the JVM exits.
 *
 * <p>Where no container engine is reachable the tests that need them are skipped (aborted) with {@link #WHY_NOT},
 * never failed: the profile is for a developer's laptop or a team's CI with Docker or Podman.
 */
final class Containers {

  static final String KAFKA_IMAGE = "apache/kafka:4.1.1";
  static final String MONGO_IMAGE = "mongo:8.0";
  static final String WHY_NOT = "the containers profile needs a container engine (Docker, or Podman's Docker-compatible "
      + "socket) and found none: run the integration tests without -Pcontainers to use the in-process broker and "
      + "store, or start an engine";

  private static KafkaContainer kafka;
  private static MongoDBContainer mongo;

  private Containers() {
  }

  /** Whether the profile asks for containers. */
  static boolean wanted() {
    return Boolean.getBoolean("lipa.test.containers");
  }

  /** Whether a container engine answers; asked once, Testcontainers caches it. */
  static boolean engineAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException e) {
      return false;
    }
  }

  static synchronized String kafkaBootstrapServers() {
    requireEngine();
    if (kafka == null) {
      KafkaContainer started = new KafkaContainer(KAFKA_IMAGE)
          // as the in-process broker: topics created on first use with 3 partitions, consumers join at once
          .withEnv("KAFKA_NUM_PARTITIONS", "3")
          .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "true")
          .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
      started.start();
      kafka = started;
    }
    return kafka.getBootstrapServers();
  }

  /** A single-node replica set: transactions, retryable writes and majority write concern behave as in production. */
  static synchronized String mongoUri() {
    requireEngine();
    if (mongo == null) {
      MongoDBContainer started = new MongoDBContainer(MONGO_IMAGE);
      started.start();
      mongo = started;
    }
    return mongo.getReplicaSetUrl();
  }

  private static void requireEngine() {
    if (!engineAvailable()) {
      throw new TestAbortedException(WHY_NOT);
    }
  }
}
