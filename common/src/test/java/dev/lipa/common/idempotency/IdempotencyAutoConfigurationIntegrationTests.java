package dev.lipa.common.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.testsupport.SharedInfra;
import java.time.Duration;
import java.util.ArrayList;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** The idempotency store's one wiring, over the Mongo wire server of {@link SharedInfra}. */
class IdempotencyAutoConfigurationIntegrationTests {

  private final MongoDatabase database =
      SharedInfra.mongoClient().getDatabase("idempotency-wiring-" + UUID.randomUUID());
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(IdempotencyAutoConfiguration.class))
      .withBean(MongoDatabase.class, () -> database)
      .withBean(JsonMapper.class, () -> JsonMapper.builder().build());

  /** Stands in for a service's settings record (lipa.collections, lipa.payouts, lipa.checkout). */
  @ConfigurationProperties("lipa.example")
  record ExampleProperties(@DefaultValue IdempotencySettings idempotency) implements IdempotencySettings.Source {
  }

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(ExampleProperties.class)
  static class IdempotentService {
  }

  @Test
  void keepsTheKeysInTheServicesOwnDatabaseWithTheSettingsOfItsPrefix() {
    runner.withUserConfiguration(IdempotentService.class)
        .withPropertyValues("lipa.example.idempotency.retention=48h", "lipa.example.idempotency.lease=5s")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(IdempotencyKeys.class)
              .hasSingleBean(IdempotentEndpoint.class);
          assertThat(context.getBean(ExampleProperties.class).idempotency()).isEqualTo(
              new IdempotencySettings(Duration.ofHours(48), Duration.ofSeconds(5), Duration.ofMinutes(10)));
          assertThat(database.getCollection(IdempotencyKeys.COLLECTION).listIndexes()
              .map(index -> index.getString("name")).into(new ArrayList<>())).contains("idempotency_expiry");
        });
  }

  @Test
  void usesTheDocumentedDefaultsWhenTheServiceSetsNothing() {
    runner.withUserConfiguration(IdempotentService.class).run(context ->
        assertThat(context.getBean(ExampleProperties.class).idempotency()).isEqualTo(IdempotencySettings.defaults()));
  }

  @Test
  void refusesToStartWithARetentionShorterThan24Hours() {
    runner.withUserConfiguration(IdempotentService.class)
        .withPropertyValues("lipa.example.idempotency.retention=23h")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure())
              .hasStackTraceContaining("Failed to bind properties under 'lipa.example.idempotency'")
              .rootCause().hasMessageContaining("at least 24h");
        });
  }

  @Test
  void aServiceWithoutIdempotencySettingsGetsNoKeyStoreAndWritesNothing() {
    runner.run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencyKeys.class);
      assertThat(database.listCollectionNames().into(new ArrayList<>()))
          .doesNotContain(IdempotencyKeys.COLLECTION);
    });
  }
}
