package dev.lipa.common.ratelimit;

import dev.lipa.common.web.ApiException;
import java.time.Duration;
import org.springframework.http.HttpStatus;

/**
 * A request refused by a rate limit: answered {@code 429 Too Many Requests} with {@code Retry-After} (whole seconds)
 * by each service's edge. The message is safe to show the caller. A refusal like any {@link ApiException} with a 4xx
 * status: it writes nothing, so an Idempotency-Key it met is released for another try.
 */
public class RateLimitExceededException extends ApiException {

  private final Duration retryAfter;

  public RateLimitExceededException(String message, Duration retryAfter) {
    super(HttpStatus.TOO_MANY_REQUESTS, message);
    this.retryAfter = retryAfter == null || retryAfter.isNegative() ? Duration.ZERO : retryAfter;
  }

  /** A refusal whose wait Bucket4j gave in nanoseconds. */
  public static RateLimitExceededException afterNanos(String message, long nanosToWait) {
    return new RateLimitExceededException(message, Duration.ofNanos(Math.max(0, nanosToWait)));
  }

  public Duration retryAfter() {
    return retryAfter;
  }

  /** The {@code Retry-After} value: the wait rounded up to whole seconds, at least 1 (0 would invite a hot loop). */
  public long retryAfterSeconds() {
    return retryAfterSeconds(retryAfter);
  }

  /** Whole seconds, rounded up, at least 1. */
  public static long retryAfterSeconds(Duration wait) {
    long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
    return Math.max(1, seconds);
  }
}
