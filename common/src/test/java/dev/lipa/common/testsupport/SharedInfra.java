package dev.lipa.common.testsupport;

import de.bwaldvogel.mongo.MongoServer;
import dev.lipa.store.StoreBackends;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One real Kafka broker (KRaft, in-process) and one real MongoDB wire-protocol server per test JVM, shared by every
 * integration test of a module. Started on first use, stopped at JVM exit. The store is the local platform's own
 * ({@link StoreBackends#memory()}: mongo-java-server's memory backend with the platform's indexes), so the tests run
 * every query through the same index code the platform does.
 */
public final class SharedInfra {

  private static MongoServer mongo;
  private static String mongoUri;
  private static EmbeddedKafkaKraftBroker kafka;

  private SharedInfra() {
  }

  /** The connection string of the shared store. */
  public static synchronized String mongoUri() {
    if (mongo == null) {
      mongo = new MongoServer(StoreBackends.memory());
      mongo.bind("127.0.0.1", 0);
      mongoUri = "mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort();
      Runtime.getRuntime().addShutdownHook(new Thread(mongo::shutdownNow));
    }
    return mongoUri;
  }

  /** The bootstrap servers of the shared broker; topics are created on first use with 3 partitions. */
  public static synchronized String kafkaBootstrapServers() {
    if (kafka == null) {
      kafka = new EmbeddedKafkaKraftBroker(1, 3);
      kafka.brokerProperty("auto.create.topics.enable", "true");
      kafka.brokerProperty("num.partitions", "3");
      kafka.brokerProperty("offsets.topic.num.partitions", "3");
      kafka.brokerProperty("group.initial.rebalance.delay.ms", "0");
      kafka.afterPropertiesSet();
      Runtime.getRuntime().addShutdownHook(new Thread(kafka::destroy));
    }
    return kafka.getBrokersAsString();
  }
}
