package dev.lipa.common.crypto;

import static dev.lipa.common.crypto.SecretEnvelopeTests.K1;
import static dev.lipa.common.crypto.SecretEnvelopeTests.K2;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class SecretsAutoConfigurationTests {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(SecretsAutoConfiguration.class));

  /** Stands in for a store that seals secrets (auth-service's signing keys, the dispatcher's signing secrets). */
  @Configuration(proxyBeanMethods = false)
  static class HoldsSecrets {

    @Bean
    String sealedAtStartUp(SecretEnvelope envelope) {
      return envelope.seal("secret", "test:1");
    }
  }

  @Test
  void aServiceHoldingSecretsRefusesToStartWithoutAMasterKey() {
    runner.withUserConfiguration(HoldsSecrets.class).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("no master key is configured")
          .hasMessageContaining("LIPA_SECRETS_MASTER_KEYS");
    });
  }

  @Test
  void aServiceHoldingSecretsStartsUnencryptedOnlyWhenPlaintextIsAllowed() {
    runner.withUserConfiguration(HoldsSecrets.class).withPropertyValues("lipa.secrets.allow-plaintext=true")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(SecretEnvelope.class).encrypts()).isFalse();
          assertThat(context.getBean("sealedAtStartUp", String.class)).startsWith("lipa-plain:v1:");
        });
  }

  @Test
  void aServiceHoldingNoSecretsNeedsNoMasterKey() {
    runner.run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void sealsUnderTheFirstConfiguredKey() {
    runner.withUserConfiguration(HoldsSecrets.class).withPropertyValues("lipa.secrets.master-keys=" + K2 + "," + K1)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(SecretEnvelope.class).primaryKeyId()).isEqualTo("k2");
          assertThat(context.getBean("sealedAtStartUp", String.class)).startsWith("lipa-sealed:v1:k2:");
        });
  }

  @Test
  void refusesToStartOnAMalformedKey() {
    runner.withUserConfiguration(HoldsSecrets.class).withPropertyValues("lipa.secrets.master-keys=k1:short")
        .run(context -> assertThat(context).hasFailed());
  }
}
