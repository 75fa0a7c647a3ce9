package dev.lipa.auth.keys;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How signing keys rotate ({@code lipa.auth.signing-keys.*}).
 *
 * @param lead how long a new key is published before it signs: longer than any verifier keeps a JWKS (the endpoint
 *     allows caches 5 minutes) and than {@code reloadInterval}, so that no verifier meets a token whose key it has
 *     not been able to see
 * @param reloadInterval how often each replica rereads the keys, and so learns of another replica's rotation
 */
@ConfigurationProperties("lipa.auth.signing-keys")
public record SigningKeySettings(
    @DefaultValue("10m") Duration lead,
    @DefaultValue("30s") Duration reloadInterval) {

  public SigningKeySettings {
    if (reloadInterval == null || reloadInterval.isNegative() || reloadInterval.isZero()) {
      throw new IllegalArgumentException("lipa.auth.signing-keys.reload-interval must be positive");
    }
    if (lead == null || lead.compareTo(reloadInterval) <= 0) {
      throw new IllegalArgumentException("lipa.auth.signing-keys.lead must be longer than the reload interval ("
          + reloadInterval + "), or a replica could sign with a key another replica does not publish yet");
    }
  }
}
