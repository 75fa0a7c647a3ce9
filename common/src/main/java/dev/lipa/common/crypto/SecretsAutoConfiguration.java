package dev.lipa.common.crypto;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

/**
 * Secrets at rest: a {@link SecretEnvelope} over the configured master key ring, and the job that re-wraps every
 * {@link SealedRecords} collection under the primary key.
 *
 * <p>The envelope is made when a service first needs it (a store that seals secrets asks for it at start-up): a
 * service that holds secrets refuses to start without a master key, unless {@code lipa.secrets.allow-plaintext=true}
 * (local tests only), while services that hold none never need the key at all.
 */
@AutoConfiguration
@EnableConfigurationProperties(SecretsProperties.class)
public class SecretsAutoConfiguration {

  private static final Logger log = LoggerFactory.getLogger(SecretsAutoConfiguration.class);

  @Bean
  @Lazy
  @ConditionalOnMissingBean
  SecretEnvelope secretEnvelope(SecretsProperties properties) {
    MasterKeyRing ring = MasterKeyRing.from(properties);
    if (ring.isEmpty()) {
      if (!properties.allowPlaintext()) {
        throw new IllegalStateException("this service stores secrets and no master key is configured: set "
            + "LIPA_SECRETS_MASTER_KEYS (id:base64-of-32-bytes, newest first) or LIPA_SECRETS_MASTER_KEY_FILE "
            + "(lipa.secrets.allow-plaintext=true stores them unencrypted, for local tests only)");
      }
      log.warn("no master key and lipa.secrets.allow-plaintext=true: secrets are stored UNENCRYPTED");
    } else {
      log.info("secrets at rest are sealed under master key {} (ring {})", ring.primaryId(), ring.ids());
    }
    return new SecretEnvelope(ring);
  }

  /** The re-wrap job, where a store can hold sealed records. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.mongodb.client.MongoCollection")
  static class Rewrap {

    @Bean
    @ConditionalOnMissingBean
    SecretRewrapJob secretRewrapJob(ObjectProvider<SealedRecords> records, ObjectProvider<SecretEnvelope> envelope,
        SecretsProperties properties) {
      return new SecretRewrapJob(records, envelope, properties);
    }
  }
}
