package dev.lipa.dispatcher.delivery;

/**
 * What one HTTP attempt produced.
 *
 * @param statusCode the merchant's HTTP status, null when no answer came (timeout, refused connection, ...)
 * @param latencyMs from sending the request to having read the bounded part of the answer, or to the failure
 * @param error short reason of a failure ("HTTP 500", "timeout", "connection refused"), null on success
 * @param response the first bytes of the merchant's answer, decoded as UTF-8, null when there was none
 * @param retryable false when trying again cannot help (a malformed URL; later: 410 Gone, a refused destination)
 */
public record AttemptOutcome(Integer statusCode, long latencyMs, String error, String response, boolean retryable) {

  /** The merchant answered; any status that is not 2xx is a failure, redirects included (they are not followed). */
  public static AttemptOutcome answered(int statusCode, long latencyMs, String response) {
    String error = null;
    if (statusCode / 100 == 3) {
      error = "HTTP " + statusCode + " (redirect not followed)";
    } else if (statusCode / 100 != 2) {
      error = "HTTP " + statusCode;
    }
    return new AttemptOutcome(statusCode, latencyMs, error, response, true);
  }

  /** No answer came; a later attempt may get one. */
  public static AttemptOutcome noAnswer(String error, long latencyMs) {
    return new AttemptOutcome(null, latencyMs, error, null, true);
  }

  /** The callback cannot be sent as it is; no later attempt will do better. */
  public static AttemptOutcome unsendable(String error) {
    return new AttemptOutcome(null, 0, error, null, false);
  }

  public boolean succeeded() {
    return statusCode != null && statusCode / 100 == 2;
  }
}
