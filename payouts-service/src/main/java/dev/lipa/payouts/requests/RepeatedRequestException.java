package dev.lipa.payouts.requests;

/** An earlier request holds the referenceId or the Idempotency-Key of the record being inserted. */
public final class RepeatedRequestException extends RuntimeException {

  RepeatedRequestException() {
    super("an earlier request holds this referenceId or Idempotency-Key", null, false, false);
  }
}
