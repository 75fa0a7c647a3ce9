package dev.lipa.common.crypto;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The master keys that seal secrets at rest ({@code lipa.secrets.*}; services map {@code LIPA_SECRETS_MASTER_KEYS} and
 * {@code LIPA_SECRETS_MASTER_KEY_FILE} onto the first two).
 *
 * @param masterKeys {@code id:base64-of-32-bytes} entries separated by commas or new lines; the first is the primary
 * @param masterKeyFile a file holding more entries in the same form, readable by its owner only; its entries follow
 *     {@code masterKeys} in the ring (so its first entry is the primary when {@code masterKeys} is empty)
 * @param allowPlaintext with no master key at all, store secrets unencrypted instead of refusing to start (local tests
 *     only)
 * @param rewrapInterval how often every sealed secret not yet under the primary key is re-wrapped under it (also once
 *     at start-up)
 */
@ConfigurationProperties("lipa.secrets")
public record SecretsProperties(
    String masterKeys,
    String masterKeyFile,
    @DefaultValue("false") boolean allowPlaintext,
    @DefaultValue("1h") Duration rewrapInterval) {

  public SecretsProperties {
    masterKeys = masterKeys == null || masterKeys.isBlank() ? null : masterKeys;
    masterKeyFile = masterKeyFile == null || masterKeyFile.isBlank() ? null : masterKeyFile.strip();
    if (rewrapInterval == null || rewrapInterval.isNegative() || rewrapInterval.isZero()) {
      throw new IllegalArgumentException("lipa.secrets.rewrap-interval must be positive");
    }
  }

  @Override
  public String toString() {
    return "SecretsProperties[masterKeys=" + (masterKeys == null ? "unset" : "(set)") + ", masterKeyFile="
        + masterKeyFile + ", allowPlaintext=" + allowPlaintext + ", rewrapInterval=" + rewrapInterval + "]";
  }
}
