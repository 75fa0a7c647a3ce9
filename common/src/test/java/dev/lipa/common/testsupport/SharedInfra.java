package dev.lipa.common.testsupport;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import dev.lipa.store.StoreBackends;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One real Kafka broker (KRaft, in-process) and one real MongoDB wire-protocol server per test JVM, shared by every
 * integration test of a module. Started on first use, stopped at JVM exit. The store is the local platform's own
 * ({@link StoreBackends#memory()}: mongo-java-server's memory backend with the platform's indexes), so the tests run
 * every query through the same index code the platform does.
 *
 * <p>Under the {@code containers} Maven profile ({@code ./mvnw verify -Pcontainers}) both are containers instead: a
 * Kafka broker and a MongoDB replica set ({@link Containers}), where a container engine is reachable; where none is,
 * the integration tests are skipped with a message saying so.
 */
public final class SharedInfra {

  /**
   * The master key ring every integration test runs with ({@code lipa.secrets.master-keys}), so that the suite
   * exercises the encryption of secrets at rest. A fixed test key: never use it anywhere else.
   */
  public static final String MASTER_KEYS = "test-k1:dGVzdC1vbmx5LW1hc3Rlci1rZXktMzItYnl0ZXMhISE=";

  private static MongoServer mongo;
  private static String mongoUri;
  private static MongoClient client;
  private static EmbeddedKafkaKraftBroker kafka;

  private SharedInfra() {
  }

  /** The connection string of the shared store. */
  public static synchronized String mongoUri() {
    if (Containers.wanted()) {
      return Containers.mongoUri();
    }
    if (mongo == null) {
      mongo = new MongoServer(StoreBackends.memory());
      mongo.bind("127.0.0.1", 0);
      mongoUri = "mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort();
      Runtime.getRuntime().addShutdownHook(new Thread(mongo::shutdownNow));
    }
    return mongoUri;
  }

  /**
   * One client of the shared store for tests that only need a database of their own: opened on first use, closed at
   * JVM exit, never by a test.
   */
  public static synchronized MongoClient mongoClient() {
    if (client == null) {
      client = MongoClients.create(mongoUri());
      Runtime.getRuntime().addShutdownHook(new Thread(client::close));
    }
    return client;
  }

  /** The bootstrap servers of the shared broker; topics are created on first use with 3 partitions. */
  public static synchronized String kafkaBootstrapServers() {
    if (Containers.wanted()) {
      return Containers.kafkaBootstrapServers();
    }
    if (kafka == null) {
      kafka = new EmbeddedKafkaKraftBroker(1, 3);
      kafka.brokerProperty("auto.create.topics.enable", "true");
      kafka.brokerProperty("num.partitions", "3");
      kafka.brokerProperty("offsets.topic.num.partitions", "3");
      kafka.brokerProperty("group.initial.rebalance.delay.ms", "0");
      kafka.afterPropertiesSet();
      Runtime.getRuntime().addShutdownHook(new Thread(kafka::destroy));
      awaitFirstAcknowledgedRecord(kafka.getBrokersAsString());
    }
    return kafka.getBrokersAsString();
  }

  /** A producer as the platform's outbox has one (idempotent, {@code acks=all}, string keys and values) on the broker. */
  public static KafkaProducer<String, String> idempotentProducer() {
    Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrapServers(),
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
  }

  /**
   * Waits until the new broker has auto-created a topic, handed out a producer id and acknowledged a record with
   * {@code acks=all}: what the first test's first send would otherwise wait for. A broker that has only just started
   * on a busy 2-core machine can take many seconds for that, which a test's own deadline should not have to cover.
   */
  private static void awaitFirstAcknowledgedRecord(String bootstrapServers) {
    Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
        new StringSerializer())) {
      producer.send(new ProducerRecord<>("test.broker-ready", "ready", "ready")).get(2, TimeUnit.MINUTES);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the embedded broker did not acknowledge a first record", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the embedded broker", e);
    }
  }
}
