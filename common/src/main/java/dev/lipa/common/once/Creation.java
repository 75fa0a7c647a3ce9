package dev.lipa.common.once;

/**
 * What became of a request to create a record at most once ({@link CreateOnce}): the record was created now, an
 * earlier request with the same referenceId or Idempotency-Key and the same body had created it (answered as that
 * request was), or the earlier request had another body (answered 409 with the message; nothing was created).
 *
 * @param <T> the record
 */
public sealed interface Creation<T> {

  /** The record this request created. */
  record Created<T>(T record) implements Creation<T> {
  }

  /** The record an earlier, identical request created; this request created nothing. */
  record Replayed<T>(T record) implements Creation<T> {
  }

  /** The referenceId or Idempotency-Key was used before with another body; nothing was created. */
  record Conflict<T>(String message) implements Creation<T> {
  }
}
