package dev.lipa.payouts.requests;

import dev.lipa.common.idempotency.IdempotentEndpoint;

/**
 * A repeated referenceId or Idempotency-Key that cannot be answered with the original response: the body differs, or
 * the first request is still being processed. Answered 409 with this message; nothing was written.
 */
public final class RequestConflictException extends RuntimeException {

  private RequestConflictException(String message) {
    super(message, null, false, false);
  }

  /** The request repeats {@code match}'s referenceId or key with another body. */
  public static RequestConflictException differentBody(RequestKeys.Match<?> match, RequestIdentity identity) {
    return new RequestConflictException(match.byReference()
        ? "referenceId " + identity.referenceId() + " was already used with a different request body"
        : IdempotentEndpoint.MISMATCH_MESSAGE);
  }

  /** The request that first used {@code match}'s referenceId or key has not finished yet. */
  public static RequestConflictException inFlight(RequestKeys.Match<?> match) {
    return inFlight(match.byReference());
  }

  /** The request that first used the referenceId ({@code byReference}) or else the key has not finished yet. */
  public static RequestConflictException inFlight(boolean byReference) {
    return new RequestConflictException(byReference
        ? "a request with this referenceId is still being processed" : IdempotentEndpoint.IN_FLIGHT_MESSAGE);
  }

  /** The record this request created was taken over by a recovery job that has not finished it yet. */
  public static RequestConflictException takenOver() {
    return new RequestConflictException("this request is still being processed; repeat it to learn its outcome");
  }
}
