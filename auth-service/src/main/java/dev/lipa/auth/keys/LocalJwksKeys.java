package dev.lipa.auth.keys;

import com.nimbusds.jose.jwk.ECKey;
import dev.lipa.common.security.JwksKeys;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;

/**
 * Common's key source, answered from this service's own key store instead of over HTTP, so the refresh endpoint
 * verifies tokens with exactly the checks every other service applies ({@link dev.lipa.common.security.TokenVerifier}).
 */
final class LocalJwksKeys extends JwksKeys {

  private final SigningKeys keys;

  LocalJwksKeys(SigningKeys keys, Clock clock) {
    // the URI is never fetched: both lookups below are overridden
    super(URI.create("http://localhost/.well-known/jwks.json"), clock, Duration.ofSeconds(10));
    this.keys = keys;
  }

  @Override
  public ECKey key(String kid) {
    return keys.publicKey(kid);
  }

  @Override
  public long generation() {
    return keys.generation();
  }
}
