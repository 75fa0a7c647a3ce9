package dev.lipa.rails.daraja;

/**
 * What became of a request to Daraja, in the three cases that the callers must treat differently:
 * <ul>
 *   <li>{@link Accepted}: Daraja acknowledged it (ResponseCode 0); the result follows on the callback or result URL;
 *   <li>{@link Refused}: surely not acted upon (no connection, a 4xx validation error, a non-zero ResponseCode, the
 *       circuit open, no token): safe to send again;
 *   <li>{@link Unknown}: the request may have reached Daraja (timeout, reset, 5xx after it was sent). The connector never
 *       sends it again: a B2C or B2B payout in this state is settled by Transaction Status on its
 *       {@code OriginatorConversationID}.
 * </ul>
 */
public sealed interface Outcome<T> permits Outcome.Accepted, Outcome.Refused, Outcome.Unknown {

  /** Daraja's acknowledgement. */
  record Accepted<T>(T answer) implements Outcome<T> {
  }

  /** Surely not acted upon, and why. */
  record Refused<T>(Refusal refusal) implements Outcome<T> {
  }

  /**
   * May or may not have been acted upon.
   *
   * @param originatorConversationId our id of the request when it has one (B2C, B2B), to settle it by
   * @param cause what happened, for the logs (never a secret)
   * @param httpStatus Daraja's status when it answered 5xx, else 0
   * @param errorCode Daraja's {@code errorCode} when its answer had one
   */
  record Unknown<T>(String originatorConversationId, String cause, int httpStatus, String errorCode)
      implements Outcome<T> {
  }
}
