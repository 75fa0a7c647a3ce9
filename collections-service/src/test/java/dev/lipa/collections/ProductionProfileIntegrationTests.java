package dev.lipa.collections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.TestIssuer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * collections-service itself, started with the production profile on the single test broker (every topic with
 * replication factor 1, dead-letter topics not created): it refuses to start, naming the topics it publishes to, the
 * ones it reads and their dead-letter topics, before it listens on a port.
 */
class ProductionProfileIntegrationTests {

  /** The platform's topics as the single test broker holds them (as automatic creation would make them). */
  private static void createOnTheSingleBroker(String... topics) throws Exception {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
        SharedInfra.kafkaBootstrapServers()))) {
      for (String topic : topics) {
        try {
          admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
    }
  }

  @Test
  void refusesToStartWithTheProductionProfileOnASingleBroker() throws Exception {
    createOnTheSingleBroker(Topics.COLLECTIONS, Topics.CALLBACKS, Topics.ORGANISATIONS);
    SpringApplicationBuilder service = new SpringApplicationBuilder(CollectionsServiceApplication.class)
        .profiles("production");

    assertThatThrownBy(() -> {
      try (ConfigurableApplicationContext started = service.run(
          "--spring.mongodb.uri=" + SharedInfra.mongoUri(),
          "--spring.kafka.bootstrap-servers=" + SharedInfra.kafkaBootstrapServers(),
          "--lipa.security.jwks-uri=" + TestIssuer.shared().jwksUri(),
          "--lipa.secrets.master-keys=" + SharedInfra.MASTER_KEYS,
          "--lipa.production-guard.timeout=20s",
          "--server.port=0", "--management.server.port=0")) {
        Assertions.fail("collections-service started with the production profile on one broker");
      }
    }).rootCause().satisfies(refusal -> assertThat(refusal.getMessage())
        .startsWith("Refusing to start with the production profile: ")
        // what it publishes
        .contains("topic payments.callbacks.v1 has replication factor 1 (at least 3 wanted)"
            + " and min.insync.replicas 1 (at least 2 wanted)")
        // what its listeners read, and their dead-letter topics
        .contains("topic payments.organisations.v1 has replication factor 1")
        .contains("topic payments.organisations.v1.collections-service-organisations.dlt does not exist"));
  }
}
