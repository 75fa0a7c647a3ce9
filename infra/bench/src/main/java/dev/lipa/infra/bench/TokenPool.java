package dev.lipa.infra.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A few valid access tokens of the sandbox organisation, bought through the gateway's {@code /api/v1/get-token} and
 * bought again well before they expire (access tokens live 300 s), handed out in turn.
 */
final class TokenPool implements AutoCloseable {

  private static final long RENEW_SECONDS = 180;
  /** A renewal that failed (a gateway or auth-service down, under chaos) is tried again this soon. */
  private static final long CHECK_SECONDS = 5;

  private final HttpClient http;
  private final String gatewayUrl;
  private final String apiKey;
  private final String apiSecret;
  private final AtomicReferenceArray<String> tokens;
  private final AtomicLongArray boughtAtMillis;
  private final AtomicLong next = new AtomicLong();
  private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("bench-tokens").factory());
  private volatile String renewalProblem;

  TokenPool(HttpClient http, String gatewayUrl, String apiKey, String apiSecret, int size)
      throws IOException, InterruptedException {
    this.http = http;
    this.gatewayUrl = gatewayUrl;
    this.apiKey = apiKey;
    this.apiSecret = apiSecret;
    this.tokens = new AtomicReferenceArray<>(size);
    this.boughtAtMillis = new AtomicLongArray(size);
    for (int i = 0; i < size; i++) {
      tokens.set(i, buy());
      boughtAtMillis.set(i, System.currentTimeMillis());
    }
    renewer.scheduleWithFixedDelay(this::renew, CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS);
  }

  String next() {
    return tokens.get((int) (next.getAndIncrement() % tokens.length()));
  }

  String renewalProblem() {
    return renewalProblem;
  }

  /** Buys again every token older than {@link #RENEW_SECONDS}; one that fails is tried again at the next check. */
  private void renew() {
    for (int i = 0; i < tokens.length(); i++) {
      if (System.currentTimeMillis() - boughtAtMillis.get(i) < TimeUnit.SECONDS.toMillis(RENEW_SECONDS)) {
        continue;
      }
      try {
        tokens.set(i, buy());
        boughtAtMillis.set(i, System.currentTimeMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        renewalProblem = e.toString();
      }
    }
  }

  private String buy() throws IOException, InterruptedException {
    String body = "{\"apiKey\":\"" + apiKey + "\",\"apiSecret\":\"" + apiSecret + "\"}";
    HttpRequest request = HttpRequest.newBuilder(URI.create(gatewayUrl + "/api/v1/get-token"))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    String token = Json.field(response.body(), "access_token");
    if (response.statusCode() != 200 || token == null) {
      throw new IOException("the gateway refused a token: HTTP " + response.statusCode() + " " + response.body());
    }
    return token;
  }

  @Override
  public void close() {
    renewer.shutdownNow();
  }
}
