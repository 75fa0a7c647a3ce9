package dev.lipa.rails.daraja;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Daraja's OAuth client-credentials token for one app, cached until shortly before it expires. One refresh at a time:
 * callers that find the token stale while another refreshes wait for that refresh instead of asking again (Daraja
 * invalidates the previous token whenever a new one is generated, so parallel refreshes would also refuse each other's
 * requests).
 */
final class AccessTokens {

  private static final Logger log = LoggerFactory.getLogger(AccessTokens.class);

  /** A cached token and when to stop using it. */
  private record Token(String value, Instant refreshAt) {
  }

  /** No token could be had; the request that needed it is not sent. */
  static final class TokenUnavailable extends Exception {
    private final Refusal refusal;

    TokenUnavailable(Refusal refusal) {
      super(refusal.message(), null, false, false);
      this.refusal = refusal;
    }

    Refusal refusal() {
      return refusal;
    }
  }

  private final DarajaConfig config;
  private final HttpClient http;
  private final Clock clock;
  private final CircuitBreaker breaker;
  private final ReentrantLock refresh = new ReentrantLock();
  private final AtomicReference<Token> current = new AtomicReference<>();

  AccessTokens(DarajaConfig config, HttpClient http, Clock clock, CircuitBreaker breaker) {
    this.config = config;
    this.http = http;
    this.clock = clock;
    this.breaker = breaker;
  }

  /** A token that is not about to expire, fetching one if needed. */
  String token() throws TokenUnavailable {
    Token t = current.get();
    if (fresh(t)) {
      return t.value();
    }
    refresh.lock();
    try {
      t = current.get();
      if (fresh(t)) {
        return t.value(); // another caller refreshed it while we waited
      }
      Token fetched = fetch();
      current.set(fetched);
      return fetched.value();
    } finally {
      refresh.unlock();
    }
  }

  /**
   * Drops the cached token after Daraja refused it, unless it was already replaced: of several requests refused with
   * the same token, only the first causes a refresh.
   */
  void invalidate(String refused) {
    Token t = current.get();
    if (t != null && t.value().equals(refused)) {
      current.compareAndSet(t, null);
    }
  }

  private boolean fresh(Token t) {
    return t != null && clock.instant().isBefore(t.refreshAt());
  }

  private Token fetch() throws TokenUnavailable {
    if (!breaker.tryAcquirePermission()) {
      throw new TokenUnavailable(new Refusal(Refusal.Kind.CIRCUIT_OPEN, 0, null,
          "circuit breaker " + breaker.getName() + " is open", null));
    }
    String basic = Base64.getEncoder().encodeToString(
        (config.consumerKey() + ":" + config.consumerSecret()).getBytes(StandardCharsets.UTF_8));
    HttpRequest request = HttpRequest.newBuilder(URI.create(
            DarajaHttp.join(config.baseUrl(), "/oauth/v1/generate") + "?grant_type=client_credentials"))
        .timeout(config.requestTimeout())
        .header("Authorization", "Basic " + basic)
        .header("Accept", "application/json")
        .GET()
        .build();
    long start = System.nanoTime();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
      throw new TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, 0, null,
          "the OAuth endpoint could not be reached: " + e.getClass().getSimpleName(), null));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      breaker.releasePermission();
      throw new TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, 0, null, "interrupted", null));
    }
    long took = System.nanoTime() - start;
    if (response.statusCode() >= 500) {
      breaker.onError(took, TimeUnit.NANOSECONDS, new IOException("HTTP " + response.statusCode()));
    } else {
      breaker.onSuccess(took, TimeUnit.NANOSECONDS);
    }
    JsonNode body = DarajaHttp.readJson(response.body());
    if (response.statusCode() != 200 || body == null) {
      DarajaHttp.ErrorBody error = DarajaHttp.errorBody(body);
      log.warn("Daraja OAuth refused shortcode {}'s app: HTTP {} {} {}", config.shortcode(), response.statusCode(),
          error.errorCode(), error.errorMessage());
      throw new TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, response.statusCode(), error.errorCode(),
          error.errorMessage() == null ? "OAuth answered HTTP " + response.statusCode() : error.errorMessage(),
          error.requestId()));
    }
    String token = body.path("access_token").isString() ? body.path("access_token").stringValue() : null;
    long expiresIn = expiresIn(body.path("expires_in"));
    if (token == null || token.isBlank() || expiresIn <= 0) {
      throw new TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, response.statusCode(), null,
          "OAuth answered without a usable access_token and expires_in", null));
    }
    // replaced shortly before expiry; a token shorter-lived than twice the margin is kept for half its life
    Duration margin = config.tokenRefreshMargin();
    Duration life = Duration.ofSeconds(expiresIn);
    if (life.compareTo(margin.multipliedBy(2)) < 0) {
      margin = life.dividedBy(2);
    }
    return new Token(token, clock.instant().plus(life).minus(margin));
  }

  /** {@code expires_in} arrives as a string ("3599"); the current portal page shows a number. Both are read. */
  static long expiresIn(JsonNode node) {
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.longValue();
    }
    if (node.isString() && node.stringValue().strip().matches("[0-9]{1,9}")) {
      return Long.parseLong(node.stringValue().strip());
    }
    return -1;
  }
}
