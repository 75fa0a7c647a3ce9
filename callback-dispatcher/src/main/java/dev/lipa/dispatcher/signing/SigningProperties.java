package dev.lipa.dispatcher.signing;

import java.time.Duration;
import java.util.Base64;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Signing secrets ({@code lipa.dispatcher.signing.*}).
 *
 * @param rotationWindow how long after a rotation the previous secret still signs too (both signatures are sent)
 * @param encryptionKey the key earlier versions encrypted secrets with (base64 of 32 bytes): only read, so that the
 *     re-wrap can seal those secrets under the platform's master key ({@code lipa.secrets.*}); unset once none is
 *     left
 * @param cacheTtl how long a process keeps an organisation's keys in memory; another replica's rotation reaches
 *     this one within this time
 */
@ConfigurationProperties("lipa.dispatcher.signing")
public record SigningProperties(
    @DefaultValue("24h") Duration rotationWindow,
    String encryptionKey,
    @DefaultValue("10s") Duration cacheTtl) {

  public SigningProperties {
    if (rotationWindow == null || rotationWindow.isNegative()) {
      throw new IllegalArgumentException("lipa.dispatcher.signing.rotation-window must not be negative");
    }
    if (cacheTtl == null || cacheTtl.isNegative()) {
      throw new IllegalArgumentException("lipa.dispatcher.signing.cache-ttl must not be negative");
    }
    encryptionKey = encryptionKey == null || encryptionKey.isBlank() ? null : encryptionKey.strip();
    if (encryptionKey != null) {
      byte[] key;
      try {
        key = Base64.getDecoder().decode(encryptionKey);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("lipa.dispatcher.signing.encryption-key must be base64");
      }
      if (key.length != 32) {
        throw new IllegalArgumentException("lipa.dispatcher.signing.encryption-key must be 32 bytes in base64");
      }
    }
  }

  byte[] encryptionKeyBytes() {
    return encryptionKey == null ? null : Base64.getDecoder().decode(encryptionKey);
  }
}
