package dev.lipa.dispatcher.delivery;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Makes one HTTP attempt of a callback: POST the body to the URL, never following redirects, bounded in time and in
 * how much of the answer it reads. It never throws for what a merchant does; every failure becomes an outcome.
 */
class CallbackSender {

  static final String USER_AGENT = "lipa-callbacks/1";

  private final HttpClient client;
  private final CallbackSigner signer;
  private final Duration requestTimeout;
  private final int snippetBytes;

  CallbackSender(HttpClient client, CallbackSigner signer, Duration requestTimeout, int snippetBytes) {
    this.client = client;
    this.signer = signer;
    this.requestTimeout = requestTimeout;
    this.snippetBytes = snippetBytes;
  }

  /** The client every attempt shares: connect timeout, no redirects, HTTP/1.1 (no h2c upgrade surprises). */
  static HttpClient httpClient(Duration connectTimeout) {
    return HttpClient.newBuilder()
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .version(HttpClient.Version.HTTP_1_1)
        .build();
  }

  /**
   * @throws AttemptAbandoned when the thread is interrupted (shutdown): the attempt is neither a success nor a
   *     failure, and its lease brings the delivery back after a restart
   */
  AttemptOutcome send(Delivery delivery) {
    HttpRequest request;
    try {
      request = request(delivery);
    } catch (IllegalArgumentException e) {
      return AttemptOutcome.unsendable("invalid url");
    }
    long started = System.nanoTime();
    CompletableFuture<HttpResponse<String>> exchange =
        client.sendAsync(request, ResponseSnippet.handler(snippetBytes));
    try {
      // bounds the whole exchange; the request's own timeout only covers the wait for the status line
      HttpResponse<String> response = exchange.get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
      return AttemptOutcome.answered(response.statusCode(), millisSince(started), response.body());
    } catch (TimeoutException e) {
      exchange.cancel(true);
      return AttemptOutcome.noAnswer("timeout", millisSince(started));
    } catch (ExecutionException e) {
      return AttemptOutcome.noAnswer(describe(e.getCause()), millisSince(started));
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      throw new AttemptAbandoned();
    }
  }

  private HttpRequest request(Delivery delivery) {
    URI uri = URI.create(delivery.url());
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new IllegalArgumentException("not an absolute http(s) URL");
    }
    // later: the SSRF guard resolves the host here, refuses private destinations (unsendable) and pins the address
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
        .timeout(requestTimeout)
        .header("Content-Type", "application/json")
        .header("User-Agent", USER_AGENT)
        .header("webhook-id", delivery.callbackId())
        .header("Idempotency-Key", delivery.callbackId());
    signer.headers(delivery.organisationId(), delivery.callbackId(), delivery.body()).forEach(builder::header);
    return builder.POST(HttpRequest.BodyPublishers.ofString(delivery.body(), StandardCharsets.UTF_8)).build();
  }

  private static String describe(Throwable failure) {
    // the client wraps the interesting exception in one or two layers of its own
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String known = switch (cause) {
        case HttpConnectTimeoutException e -> "connect timeout";
        case HttpTimeoutException e -> "timeout";
        case NoRouteToHostException e -> "no route to host";
        case ConnectException e -> "connection refused";
        case UnknownHostException e -> "unknown host";
        case SSLException e -> "TLS failure";
        default -> null;
      };
      if (known != null) {
        return known;
      }
    }
    if (failure instanceof IOException) {
      return "I/O error" + (failure.getMessage() == null ? "" : ": " + abbreviate(failure.getMessage()));
    }
    return "error: " + failure.getClass().getSimpleName();
  }

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200);
  }

  private static long millisSince(long startedNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
  }

  /** The attempt was interrupted before it had a result. */
  static final class AttemptAbandoned extends RuntimeException {

    AttemptAbandoned() {
      super("attempt abandoned", null, false, false);
    }
  }
}
