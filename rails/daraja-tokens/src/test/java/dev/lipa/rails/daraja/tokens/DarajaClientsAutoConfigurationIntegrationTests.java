package dev.lipa.rails.daraja.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.crypto.MasterKeyRing;
import dev.lipa.common.crypto.SealedRecords;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.rails.daraja.DarajaClients;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The wiring of a service's Daraja clients: a live service only, its tokens in its own database. */
class DarajaClientsAutoConfigurationIntegrationTests {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(DarajaClientsAutoConfiguration.class))
      .withBean(MongoDatabase.class,
          () -> SharedInfra.mongoClient().getDatabase("daraja-tokens-" + UUID.randomUUID()))
      .withBean(SecretEnvelope.class, () -> new SecretEnvelope(MasterKeyRing.parse(SharedInfra.MASTER_KEYS)));

  @Test
  void aLiveServiceSharesItsDarajaTokensThroughItsDatabaseAndReWrapsThem() {
    runner.withPropertyValues("lipa.environment=live").run(context -> {
      assertThat(context).hasSingleBean(DarajaClients.class).hasSingleBean(DarajaTokenStore.class);
      assertThat(context.getBeansOfType(SealedRecords.class).values())
          .as("the re-wrap job keeps the tokens under the primary master key")
          .containsExactly(context.getBean(DarajaTokenStore.class));
    });
  }

  @Test
  void aSandboxServiceHasNoDarajaClients() {
    runner.withPropertyValues("lipa.environment=sandbox").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).doesNotHaveBean(DarajaClients.class).doesNotHaveBean(DarajaTokenStore.class);
    });
  }
}
