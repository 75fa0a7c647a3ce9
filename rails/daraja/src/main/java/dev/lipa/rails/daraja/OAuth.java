package dev.lipa.rails.daraja;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Daraja's OAuth endpoint for one app: {@code GET /oauth/v1/generate?grant_type=client_credentials} with the app's
 * consumer key and secret. Every call generates a new token, which invalidates the app's earlier ones: only
 * {@link AccessTokens} calls it, under its rules.
 */
final class OAuth implements AccessTokens.Source {

  private static final Logger log = LoggerFactory.getLogger(OAuth.class);

  private final DarajaConfig config;
  private final HttpClient http;
  private final Clock clock;
  private final CircuitBreaker breaker;

  OAuth(DarajaConfig config, HttpClient http, Clock clock, CircuitBreaker breaker) {
    this.config = config;
    this.http = http;
    this.clock = clock;
    this.breaker = breaker;
  }

  @Override
  public AccessTokens.Issued generate() throws AccessTokens.TokenUnavailable {
    if (!breaker.tryAcquirePermission()) {
      throw new AccessTokens.TokenUnavailable(new Refusal(Refusal.Kind.CIRCUIT_OPEN, 0, null,
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
      throw new AccessTokens.TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, 0, null,
          "the OAuth endpoint could not be reached: " + e.getClass().getSimpleName(), null));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      breaker.releasePermission();
      throw new AccessTokens.TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, 0, null, "interrupted", null));
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
      throw new AccessTokens.TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, response.statusCode(),
          error.errorCode(), error.errorMessage() == null ? "OAuth answered HTTP " + response.statusCode()
              : error.errorMessage(), error.requestId()));
    }
    String token = body.path("access_token").isString() ? body.path("access_token").stringValue() : null;
    long expiresIn = expiresIn(body.path("expires_in"));
    if (token == null || token.isBlank() || expiresIn <= 0) {
      throw new AccessTokens.TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, response.statusCode(), null,
          "OAuth answered without a usable access_token and expires_in", null));
    }
    Instant now = clock.instant();
    return new AccessTokens.Issued(token, now, now.plusSeconds(expiresIn));
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
