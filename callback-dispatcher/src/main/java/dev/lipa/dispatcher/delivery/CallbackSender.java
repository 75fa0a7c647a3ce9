package dev.lipa.dispatcher.delivery;

import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.callbacks.RefusedCallbackUrl;
import dev.lipa.common.callbacks.RefusedDestination;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;
import dev.lipa.common.tracing.TraceContexts;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

/**
 * Makes one HTTP attempt of a callback: POST the body to the URL, never following redirects, bounded in time and in
 * how much of the answer it reads. It never throws for what a merchant does; every failure becomes an outcome.
 *
 * <p>Its client is a {@link GuardedHttpClient}: the SSRF guard is its resolver.
 */
class CallbackSender implements AutoCloseable {

  static final String USER_AGENT = "lipa-callbacks/1";
  private static final ContentType JSON = ContentType.create("application/json");

  private final CloseableHttpClient client;
  private final CallbackUrlGuard guard;
  private final CallbackSigner signer;
  private final Duration requestTimeout;
  private final int snippetBytes;
  private final Clock clock;
  private final ScheduledExecutorService watchdog;
  private final TraceContexts tracing;

  CallbackSender(CloseableHttpClient client, CallbackUrlGuard guard, CallbackSigner signer, Duration requestTimeout,
      int snippetBytes, Clock clock, ScheduledExecutorService watchdog) {
    this(client, guard, signer, requestTimeout, snippetBytes, clock, watchdog, TraceContexts.NONE);
  }

  /** With {@code tracing}: each attempt is a span of the payment's trace, and its POST carries {@code traceparent}. */
  CallbackSender(CloseableHttpClient client, CallbackUrlGuard guard, CallbackSigner signer, Duration requestTimeout,
      int snippetBytes, Clock clock, ScheduledExecutorService watchdog, TraceContexts tracing) {
    this.tracing = tracing;
    this.client = client;
    this.guard = guard;
    this.signer = signer;
    this.requestTimeout = requestTimeout;
    this.snippetBytes = snippetBytes;
    this.clock = clock;
    this.watchdog = watchdog;
  }

  /**
   * @throws AttemptAbandoned when the thread is interrupted (shutdown): the attempt is neither a success nor a
   *     failure, and its lease brings the delivery back after a restart
   */
  AttemptOutcome send(Delivery delivery) {
    URI uri;
    try {
      uri = guard.form(delivery.url());
    } catch (RefusedCallbackUrl e) {
      // a live dispatcher sends nothing in clear text, whatever a producer let through
      return AttemptOutcome.unsendable(guard.httpsOnly() ? "invalid url: " + e.getMessage() : "invalid url");
    }
    try {
      // checked here too, not only when a connection opens: a pooled connection may be reused, and an address
      // literal must never depend on whether the client consults its resolver for it
      guard.resolve(uri.getHost(), CallbackUrlGuard.port(uri));
    } catch (RefusedDestination e) {
      return AttemptOutcome.unsendable("destination refused: " + e.getMessage());
    } catch (UnknownHostException e) {
      return AttemptOutcome.noAnswer("unknown host", 0);
    }
    HttpPost post = new HttpPost(uri);
    post.setHeader("webhook-id", delivery.callbackId());
    post.setHeader("Idempotency-Key", delivery.callbackId());
    // the signer runs right before sending, so webhook-timestamp is this attempt's time
    signer.headers(delivery.organisationId(), delivery.callbackId(), delivery.body()).forEach(post::setHeader);
    post.setEntity(new ByteArrayEntity(delivery.body().getBytes(StandardCharsets.UTF_8), JSON));
    // the attempt continues the payment's trace (kept with the delivery, so retries and replays do too); the span
    // names the host only: a callback URL's path or query may hold the merchant's own secret
    TraceContexts.Hop hop = tracing.startHop(delivery.traceparent(), "callback POST", uri.getHost());
    if (hop.traceparent() != null) {
      post.setHeader(TraceContexts.TRACEPARENT, hop.traceparent());
    }
    try {
      AttemptOutcome outcome = exchange(post);
      hop.end(outcome.succeeded() ? null : new CallbackFailed(outcome));
      return outcome;
    } catch (RuntimeException e) {
      hop.end(e);
      throw e;
    }
  }

  private AttemptOutcome exchange(HttpPost post) {

    AtomicBoolean timedOut = new AtomicBoolean();
    long started = System.nanoTime();
    // bounds the whole exchange; the socket timeout alone would let a merchant trickle bytes forever
    ScheduledFuture<?> deadline = watchdog.schedule(() -> {
      timedOut.set(true);
      post.cancel();
    }, requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
    try (ClassicHttpResponse response = client.executeOpen(null, post, null)) {
      int status = response.getCode();
      Duration retryAfter = retryAfter(response.getFirstHeader("Retry-After"), clock.instant());
      String snippet = snippet(response.getEntity(), post);
      return AttemptOutcome.answered(status, millisSince(started), snippet, retryAfter);
    } catch (IOException | RuntimeException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw new AttemptAbandoned();
      }
      if (timedOut.get()) {
        return AttemptOutcome.noAnswer("timeout", millisSince(started));
      }
      RefusedDestination refused = find(e, RefusedDestination.class);
      if (refused != null) {
        return AttemptOutcome.unsendable("destination refused: " + refused.getMessage());
      }
      return AttemptOutcome.noAnswer(describe(e), millisSince(started));
    } finally {
      deadline.cancel(false);
    }
  }

  /**
   * Reads at most {@code snippetBytes} of the answer. A short answer is read to its end, so the connection goes back
   * to the pool; a longer one is cut off by aborting the exchange (its connection is dropped, never drained).
   */
  private String snippet(HttpEntity entity, HttpPost post) throws IOException {
    if (entity == null) {
      return null;
    }
    byte[] buffer = new byte[snippetBytes + 1];
    int read = 0;
    try (InputStream in = entity.getContent()) {
      while (read < buffer.length) {
        int n = in.read(buffer, read, buffer.length - read);
        if (n < 0) {
          break;
        }
        read += n;
      }
      if (read > snippetBytes) {
        post.cancel();
        read = snippetBytes;
      }
    } catch (IOException e) {
      if (read < snippetBytes && !post.isCancelled()) {
        throw e;
      }
    }
    // a cut can split a multi-byte character: decoding replaces the broken tail instead of failing
    return read == 0 ? null : new String(Arrays.copyOf(buffer, read), StandardCharsets.UTF_8);
  }

  /** Retry-After as delta-seconds or an HTTP date; null when absent or unreadable. */
  static Duration retryAfter(Header header, Instant now) {
    if (header == null || header.getValue() == null) {
      return null;
    }
    String value = header.getValue().strip();
    if (value.matches("[0-9]{1,10}")) {
      return Duration.ofSeconds(Long.parseLong(value));
    }
    try {
      Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      return at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String describe(Throwable failure) {
    // the client wraps the interesting exception in one or two layers of its own
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String known = switch (cause) {
        case ConnectTimeoutException e -> "connect timeout";
        case SocketTimeoutException e -> "timeout";
        case NoRouteToHostException e -> "no route to host";
        case ConnectException e -> "connection refused";
        case UnknownHostException e -> "unknown host";
        case SSLException e -> "TLS failure";
        case InterruptedIOException e -> "timeout";
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

  private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
    }
    return null;
  }

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200);
  }

  private static long millisSince(long startedNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
  }

  @Override
  public void close() throws IOException {
    client.close();
  }

  /** How a failed attempt marks its span: the status or the error, never the URL. */
  static final class CallbackFailed extends RuntimeException {

    CallbackFailed(AttemptOutcome outcome) {
      super(outcome.statusCode() != null ? "answered " + outcome.statusCode() : outcome.error(), null, false, false);
    }
  }

  /** The attempt was interrupted before it had a result. */
  static final class AttemptAbandoned extends RuntimeException {

    AttemptAbandoned() {
      super("attempt abandoned", null, false, false);
    }
  }
}
