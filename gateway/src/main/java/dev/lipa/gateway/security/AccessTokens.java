package dev.lipa.gateway.security;

import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.security.VerifiedToken;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Access tokens the gateway has already verified, so that a repeat caller is admitted on the event loop with one
 * map lookup; only a token not seen yet goes to {@link TokenVerifier} (signature check and perhaps a blocking JWKS
 * fetch), which the caller must run off the event loop.
 *
 * <p>An entry lives until the earlier of the token's expiry (plus the verifier's skew) and {@code ttl}, and every
 * entry is dropped when the key set changes. The key is the same String the verifier caches, so the two caches
 * share the token text.
 */
public class AccessTokens {

  private static final long SKEW_MILLIS = Duration.ofSeconds(60).toMillis();
  private static final int MAX_REMEMBERED = 50_000;

  private final TokenVerifier verifier;
  private final JwksKeys keys;
  private final Clock clock;
  private final long ttlMillis;
  private final ConcurrentHashMap<String, Admitted> admitted = new ConcurrentHashMap<>();
  private volatile long generation = -1;

  public AccessTokens(TokenVerifier verifier, JwksKeys keys, Clock clock, Duration ttl) {
    this.verifier = verifier;
    this.keys = keys;
    this.clock = clock;
    this.ttlMillis = ttl.toMillis();
  }

  /** True when this token was verified as an access token recently and is still valid; never blocks. */
  public boolean isAdmitted(String token) {
    Admitted entry = admitted.get(token);
    return entry != null && entry.generation == keys.generation() && clock.millis() < entry.untilMillis;
  }

  /**
   * Verifies the token fully (may block on a JWKS fetch) and remembers it when valid.
   *
   * @throws dev.lipa.common.security.InvalidTokenException when it is not a valid access token
   * @throws dev.lipa.common.security.KeysUnavailableException when the keys cannot be fetched
   */
  public VerifiedToken verify(String token) {
    VerifiedToken verified = verifier.verifyAccess(token);
    long current = keys.generation();
    if (current != generation || admitted.size() >= MAX_REMEMBERED) {
      admitted.clear();
      generation = current;
    }
    long now = clock.millis();
    long until = Math.min(verified.expiresAt().toEpochMilli() + SKEW_MILLIS, now + ttlMillis);
    admitted.put(token, new Admitted(until, current));
    return verified;
  }

  private record Admitted(long untilMillis, long generation) {
  }
}
