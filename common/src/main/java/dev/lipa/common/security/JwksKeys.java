package dev.lipa.common.security;

import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The issuer's public keys, fetched from its JWKS endpoint and cached. An unknown {@code kid} triggers one refetch,
 * at most every {@code minRefetchInterval}, so forged kids cannot hammer the issuer. A key set older than
 * {@code maxAge} is fetched again at the next lookup, so a key the issuer retired stops verifying here too; while the
 * issuer cannot be reached, the keys known so far keep verifying.
 */
public class JwksKeys {

  /** As long as the issuer lets caches keep its JWKS; its signing-key lead time is longer. */
  public static final Duration DEFAULT_MAX_AGE = Duration.ofMinutes(5);

  private final URI jwksUri;
  private final HttpClient http;
  private final Clock clock;
  private final Duration minRefetchInterval;
  private final Duration maxAge;
  private final AtomicLong generation = new AtomicLong();
  private volatile Map<String, ECKey> keys = Map.of();
  private volatile Instant lastFetch = Instant.EPOCH;
  private volatile Instant lastAttempt = Instant.EPOCH;

  public JwksKeys(URI jwksUri, Clock clock, Duration minRefetchInterval) {
    this(jwksUri, clock, minRefetchInterval, DEFAULT_MAX_AGE);
  }

  public JwksKeys(URI jwksUri, Clock clock, Duration minRefetchInterval, Duration maxAge) {
    this.jwksUri = jwksUri;
    this.clock = clock;
    this.minRefetchInterval = minRefetchInterval;
    this.maxAge = maxAge;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  }

  /** Increases every time the key set changes, so caches of verified tokens know to drop their entries. */
  public long generation() {
    return generation.get();
  }

  /** The key with this id, fetching the key set when it is not known yet; null when the issuer has no such key. */
  public ECKey key(String kid) {
    ECKey key = keys.get(kid);
    if (key != null && fresh(clock.instant())) {
      return key;
    }
    synchronized (this) {
      Instant now = clock.instant();
      key = keys.get(kid);
      if (key != null && fresh(now)) {
        return key;
      }
      if (!keys.isEmpty() && now.isBefore(lastAttempt.plus(minRefetchInterval))) {
        return key;
      }
      lastAttempt = now;
      try {
        refresh(now);
      } catch (KeysUnavailableException e) {
        if (key != null) {
          return key; // a known key whose set is merely old: the issuer is away for a moment
        }
        throw e;
      }
      return keys.get(kid);
    }
  }

  private boolean fresh(Instant now) {
    return now.isBefore(lastFetch.plus(maxAge));
  }

  private void refresh(Instant now) {
    try {
      HttpResponse<String> response = http.send(
          HttpRequest.newBuilder(jwksUri).timeout(Duration.ofSeconds(3)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new KeysUnavailableException("JWKS answered " + response.statusCode(), null);
      }
      Map<String, ECKey> fetched = JWKSet.parse(response.body()).getKeys().stream()
          .filter(k -> k instanceof ECKey && k.getKeyID() != null)
          .map(JWK::toECKey)
          .collect(Collectors.toUnmodifiableMap(JWK::getKeyID, Function.identity(), (a, b) -> a));
      lastFetch = now;
      if (!fetched.equals(keys)) {
        keys = fetched;
        generation.incrementAndGet();
      }
    } catch (KeysUnavailableException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeysUnavailableException("interrupted while fetching the JWKS", e);
    } catch (Exception e) {
      throw new KeysUnavailableException("cannot fetch the JWKS from " + jwksUri, e);
    }
  }
}
