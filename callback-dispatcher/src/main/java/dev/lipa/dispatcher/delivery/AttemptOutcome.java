package dev.lipa.dispatcher.delivery;

import java.time.Duration;

/**
 * What one HTTP attempt produced.
 *
 * @param statusCode the merchant's HTTP status, null when no answer came (timeout, refused connection, ...)
 * @param latencyMs from sending the request to having read the bounded part of the answer, or to the failure
 * @param error short reason of a failure ("HTTP 500", "timeout", "connection refused"), null on success
 * @param response the first bytes of the merchant's answer, decoded as UTF-8, null when there was none
 * @param retryable false when trying again cannot help (a malformed URL, 410 Gone, a refused destination)
 * @param retryAfter the wait a 429 or 503 asked for in {@code Retry-After}, null otherwise
 */
public record AttemptOutcome(
    Integer statusCode, long latencyMs, String error, String response, boolean retryable, Duration retryAfter) {

  /** The merchant answered; any status that is not 2xx is a failure, redirects included (they are not followed). */
  public static AttemptOutcome answered(int statusCode, long latencyMs, String response) {
    return answered(statusCode, latencyMs, response, null);
  }

  /**
   * The merchant answered, with the {@code Retry-After} it sent (honoured for 429 and 503 only). A 410 Gone says the
   * endpoint is gone for good: no retry.
   */
  public static AttemptOutcome answered(int statusCode, long latencyMs, String response, Duration retryAfter) {
    String error = null;
    if (statusCode / 100 == 3) {
      error = "HTTP " + statusCode + " (redirect not followed)";
    } else if (statusCode == 410) {
      error = "HTTP 410 (endpoint gone: deliveries to this URL stopped)";
    } else if (statusCode / 100 != 2) {
      error = "HTTP " + statusCode;
    }
    boolean honoursRetryAfter = statusCode == 429 || statusCode == 503;
    return new AttemptOutcome(statusCode, latencyMs, error, response, statusCode != 410,
        honoursRetryAfter ? retryAfter : null);
  }

  /** No answer came; a later attempt may get one. */
  public static AttemptOutcome noAnswer(String error, long latencyMs) {
    return new AttemptOutcome(null, latencyMs, error, null, true, null);
  }

  /** The callback cannot be sent as it is; no later attempt will do better. */
  public static AttemptOutcome unsendable(String error) {
    return new AttemptOutcome(null, 0, error, null, false, null);
  }

  public boolean succeeded() {
    return statusCode != null && statusCode / 100 == 2;
  }

  /** The merchant told us the endpoint no longer exists. */
  public boolean gone() {
    return statusCode != null && statusCode == 410;
  }

  /**
   * Whether this outcome says the destination host is unhealthy (for its circuit breaker): no answer, or a 5xx/429.
   * Any other answer, even a 4xx, shows a host that responds.
   */
  public boolean hostFailure() {
    return statusCode == null ? retryable : statusCode / 100 == 5 || statusCode == 429;
  }
}
