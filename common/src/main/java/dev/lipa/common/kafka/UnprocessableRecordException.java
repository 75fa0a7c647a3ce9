package dev.lipa.common.kafka;

/**
 * Thrown by a Kafka listener for a record it can never process, whatever the store or the broker do: unreadable JSON,
 * a missing or invalid field, an unknown currency, an amount the store cannot keep. The platform's error handler sends
 * such a record to its consumer's dead-letter topic at once instead of retrying it (see {@link ListenerFailures}).
 *
 * <p>Throw it only for what is proven deterministic: any other exception is taken for an infrastructure failure and
 * retried without limit. A record that is merely not for this consumer (another event type) is no failure: return.
 */
public class UnprocessableRecordException extends RuntimeException {

  public UnprocessableRecordException(String message) {
    super(message);
  }

  public UnprocessableRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
