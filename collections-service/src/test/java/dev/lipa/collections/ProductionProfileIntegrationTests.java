package dev.lipa.collections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.TestIssuer;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * collections-service itself, started with the production profile on the single test broker (every topic with
 * replication factor 1): it refuses to start, naming the topics it publishes to, the ones it reads and their
 * dead-letter topics, before it listens on a port.
 */
class ProductionProfileIntegrationTests {

  @Test
  void refusesToStartWithTheProductionProfileOnASingleBroker() {
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
        .containsPattern("topic payments\\.callbacks\\.v1 (has replication factor 1|does not exist)")
        // what its listeners read, and their dead-letter topics
        .containsPattern("topic payments\\.organisations\\.v1 (has replication factor 1|does not exist)")
        .contains("topic payments.collections.v1.collections-sandbox-rail.dlt"));
  }
}
