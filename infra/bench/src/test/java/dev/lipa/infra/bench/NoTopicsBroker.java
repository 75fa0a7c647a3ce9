package dev.lipa.infra.bench;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One real Kafka broker (KRaft, in-process) configured as the launcher's are, with automatic topic creation off, shared
 * by the bench's integration tests: started on first use, stopped at JVM exit. The bench creates the reference's topics
 * itself, like the platform's; on this broker nothing else would.
 */
final class NoTopicsBroker {

  private static EmbeddedKafkaKraftBroker kafka;

  private NoTopicsBroker() {
  }

  static synchronized String bootstrapServers() {
    if (kafka == null) {
      kafka = new EmbeddedKafkaKraftBroker(1, 1);
      kafka.brokerProperty("auto.create.topics.enable", "false");
      kafka.brokerProperty("num.partitions", "1");
      kafka.brokerProperty("group.initial.rebalance.delay.ms", "0");
      kafka.afterPropertiesSet();
      Runtime.getRuntime().addShutdownHook(new Thread(kafka::destroy));
    }
    return kafka.getBrokersAsString();
  }
}
