package dev.lipa.rails.daraja;

/**
 * What STK Query said about a push. Only {@link Completed} is final; "the transaction is being processed" (HTTP 500,
 * {@code 500.001.1001}), "still under processing" (ResultCode {@code 4999}) and every failure to ask are not.
 */
public sealed interface StkQueryResult permits StkQueryResult.Completed, StkQueryResult.StillProcessing,
    StkQueryResult.NotAnswered {

  /** True only for an answer that settles the push. */
  default boolean isFinal() {
    return this instanceof Completed;
  }

  /** The push's result: {@code resultCode} 0 paid, anything else not (see {@code ResultCodes.stk}). */
  record Completed(String merchantRequestId, String checkoutRequestId, String resultCode, String resultDesc)
      implements StkQueryResult {

    public boolean successful() {
      return "0".equals(resultCode);
    }
  }

  /**
   * The customer has not answered yet (or Daraja has not finished): ask again later. {@code errorCode} is Daraja's
   * error code ({@code 500.001.1001}) or the result code that is no result ({@code 4999}).
   */
  record StillProcessing(String errorCode, String errorMessage) implements StkQueryResult {
  }

  /** The question got no usable answer (refused, unreachable, circuit open, unreadable): ask again later. */
  record NotAnswered(String reason) implements StkQueryResult {
  }
}
