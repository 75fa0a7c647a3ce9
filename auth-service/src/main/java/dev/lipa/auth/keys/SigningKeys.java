package dev.lipa.auth.keys;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.lipa.common.security.JwksKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The service's ES256 keys: the active one signs, every published one verifies and appears in the JWKS. The key is
 * generated on the very first start and read back from the store on every later one.
 */
@Component
public class SigningKeys {

  private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);
  // keys change rarely (a rotation by another replica); rereading the store now and then is enough to follow
  private static final Duration RELOAD_AFTER = Duration.ofSeconds(60);
  private static final Duration MIN_RELOAD_INTERVAL = Duration.ofSeconds(10);

  private final SigningKeyStore store;
  private final Clock clock;
  private final Active active;
  private final AtomicLong generation = new AtomicLong();
  private volatile Map<String, ECKey> published;
  private volatile Instant loadedAt;

  SigningKeys(SigningKeyStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
    SigningKey key = store.activeOrCreate(SigningKeys::generate);
    try {
      this.active = new Active(key.kid(), new ECDSASigner(key.key()));
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot sign with key " + key.kid(), e);
    }
    reload(clock.instant());
    log.info("signing tokens with key {}", key.kid());
  }

  /** The key new tokens are signed with. */
  public Active active() {
    return active;
  }

  /** The public keys for {@code /.well-known/jwks.json}. */
  public JWKSet publicKeySet() {
    Instant now = clock.instant();
    if (!now.isBefore(loadedAt.plus(RELOAD_AFTER))) {
      reload(now);
    }
    return new JWKSet(published.values().stream().map(k -> (JWK) k).toList());
  }

  /** The published public key with this id, or null; an unknown id rereads the store, at most every 10 s. */
  public ECKey publicKey(String kid) {
    ECKey key = published.get(kid);
    if (key == null) {
      Instant now = clock.instant();
      synchronized (this) {
        if (!now.isBefore(loadedAt.plus(MIN_RELOAD_INTERVAL))) {
          reload(now);
        }
      }
      key = published.get(kid);
    }
    return key;
  }

  /** The published keys in the shape {@link dev.lipa.common.security.TokenVerifier} reads keys from. */
  public JwksKeys asJwksKeys() {
    return new LocalJwksKeys(this, clock);
  }

  long generation() {
    return generation.get();
  }

  private synchronized void reload(Instant now) {
    List<SigningKey> keys = store.published();
    Map<String, ECKey> fresh = keys.stream().collect(
        Collectors.toUnmodifiableMap(SigningKey::kid, k -> k.key().toPublicJWK(), (a, b) -> a));
    if (!fresh.equals(published)) {
      published = fresh;
      generation.incrementAndGet();
    }
    loadedAt = now;
  }

  static ECKey generate() {
    try {
      return new ECKeyGenerator(Curve.P_256)
          .keyUse(KeyUse.SIGNATURE)
          .algorithm(JWSAlgorithm.ES256)
          .keyIDFromThumbprint(true)
          .generate();
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot generate a P-256 key", e);
    }
  }

  /** The signing half of the active key; {@link ECDSASigner} is safe to share between threads. */
  public record Active(String kid, JWSSigner signer) {
  }
}
