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
 * at most every {@code minRefetchInterval}, so forged kids cannot hammer the issuer.
 */
public class JwksKeys {

  private final URI jwksUri;
  private final HttpClient http;
  private final Clock clock;
  private final Duration minRefetchInterval;
  private final AtomicLong generation = new AtomicLong();
  private volatile Map<String, ECKey> keys = Map.of();
  private volatile Instant lastFetch = Instant.EPOCH;

  public JwksKeys(URI jwksUri, Clock clock, Duration minRefetchInterval) {
    this.jwksUri = jwksUri;
    this.clock = clock;
    this.minRefetchInterval = minRefetchInterval;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  }

  /** Increases every time the key set changes, so caches of verified tokens know to drop their entries. */
  public long generation() {
    return generation.get();
  }

  /** The key with this id, fetching the key set when it is not known yet; null when the issuer has no such key. */
  public ECKey key(String kid) {
    ECKey key = keys.get(kid);
    if (key != null) {
      return key;
    }
    synchronized (this) {
      key = keys.get(kid);
      if (key != null) {
        return key;
      }
      Instant now = clock.instant();
      if (!keys.isEmpty() && now.isBefore(lastFetch.plus(minRefetchInterval))) {
        return null;
      }
      refresh(now);
      return keys.get(kid);
    }
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
