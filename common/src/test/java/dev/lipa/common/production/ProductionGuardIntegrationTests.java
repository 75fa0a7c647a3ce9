package dev.lipa.common.production;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.store.StoreAutoConfiguration;
import dev.lipa.common.testsupport.SharedInfra;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * The production guard against the real test broker (one broker, so replication factor 1) and the real store: it
 * refuses, naming the topic and what is short, and passes once the thresholds are met. One broker cannot hold a topic
 * with 3 replicas, so the passing cases lower the replication threshold to what one broker has and keep
 * {@code min.insync.replicas} at 2 (a topic config one broker can hold): they prove the guard reads both facts from
 * Kafka, not that a 3-broker cluster passes (the cluster run, {@code ./platform up --cluster}, is where that shows).
 */
class ProductionGuardIntegrationTests {

  private static Admin admin;

  private final ApplicationContextRunner service = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, MongoAutoConfiguration.class,
          StoreAutoConfiguration.class, ProductionGuardAutoConfiguration.class))
      .withPropertyValues(
          "spring.kafka.bootstrap-servers=" + SharedInfra.kafkaBootstrapServers(),
          "spring.mongodb.uri=" + SharedInfra.mongoUri(),
          "spring.mongodb.database=lipa-guard-tests",
          "lipa.production-guard.timeout=20s");

  private final ApplicationContextRunner production = service.withPropertyValues("spring.profiles.active=production");

  @BeforeAll
  static void connect() {
    admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers()));
  }

  @AfterAll
  static void disconnect() {
    admin.close();
  }

  private static String topic(Map<String, String> configs) throws Exception {
    String name = "test.guard." + UUID.randomUUID();
    admin.createTopics(List.of(new NewTopic(name, 1, (short) 1).configs(configs))).all().get(30, TimeUnit.SECONDS);
    return name;
  }

  @Test
  void refusesToStartOnTheSingleTestBrokerNamingTheTopicAndWhatIsShort() throws Exception {
    String topic = topic(Map.of());

    production.withPropertyValues("lipa.production-guard.produced-topics=" + topic).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .hasMessageStartingWith("Refusing to start with the production profile: ")
          .hasMessageContaining("topic " + topic + " has replication factor 1 (at least 3 wanted)"
              + " and min.insync.replicas 1 (at least 2 wanted)");
    });
  }

  @Test
  void passesWhenTheTopicsMeetTheThresholds() throws Exception {
    String topic = topic(Map.of("min.insync.replicas", "2"));

    production.withPropertyValues("lipa.production-guard.produced-topics=" + topic,
        "lipa.production-guard.min-replication-factor=1").run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(ProductionGuard.class).isRunning()).isTrue();
          assertThat(context.getBean(ProductionGuard.class).problems()).isEmpty();
        });
  }

  @Test
  void readsMinInsyncReplicasFromTheTopicNotFromTheThresholdAlone() throws Exception {
    String topic = topic(Map.of()); // the broker's default, 1

    production.withPropertyValues("lipa.production-guard.produced-topics=" + topic,
        "lipa.production-guard.min-replication-factor=1").run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause()
              .hasMessageContaining("topic " + topic + " has min.insync.replicas 1 (at least 2 wanted)")
              .hasMessageNotContaining("replication factor");
        });
  }

  @Test
  void refusesATopicThatDoesNotExistRatherThanLetItBeCreatedWithTheBrokersDefaults() throws Exception {
    String topic = "test.guard.absent." + UUID.randomUUID();

    production.withPropertyValues("lipa.production-guard.produced-topics=" + topic,
        "lipa.production-guard.min-replication-factor=1").run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause()
              .hasMessageContaining("topic " + topic + " does not exist");
        });
    assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain(topic);
  }

  @Test
  void checksTheTopicsTheListenersReadAndTheirDeadLetterTopics() throws Exception {
    String topic = topic(Map.of("min.insync.replicas", "2"));
    System.setProperty("test.guard.listened", topic);
    try {
      production.withUserConfiguration(Listening.class)
          .withPropertyValues("lipa.production-guard.min-replication-factor=1").run(context -> {
            assertThat(context).hasFailed();
            // the listened topic itself is fine; its dead-letter topic was never created
            assertThat(context.getStartupFailure()).rootCause()
                .hasMessageContaining("topic " + topic + ".test-guard-listener.dlt does not exist")
                .hasMessageNotContaining("topic " + topic + " ");
          });
    } finally {
      System.clearProperty("test.guard.listened");
    }
  }

  @Test
  void refusesAStoreWhoseWriteConcernIsNotMajority() throws Exception {
    String topic = topic(Map.of("min.insync.replicas", "2"));

    production.withPropertyValues("lipa.production-guard.produced-topics=" + topic,
        "lipa.production-guard.min-replication-factor=1",
        "spring.mongodb.uri=" + SharedInfra.mongoUri() + "/?w=1").run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause()
              .hasMessageContaining("the MongoDB write concern is w=1, not w=majority");
        });
  }

  @Test
  void theLocalRunWithoutTheProductionProfileStartsOnTheSingleBroker() throws Exception {
    String topic = topic(Map.of());

    service.withPropertyValues("lipa.production-guard.produced-topics=" + topic).run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(ProductionGuard.class);
    });
  }

  @Configuration(proxyBeanMethods = false)
  static class Listening {

    @Bean
    Listener listener() {
      return new Listener();
    }
  }

  static class Listener {

    @KafkaListener(topics = "${test.guard.listened}", groupId = "test-guard-listener", autoStartup = "false")
    void on(String value) {
      // never started: the guard only reads which topics it would consume
    }
  }
}
