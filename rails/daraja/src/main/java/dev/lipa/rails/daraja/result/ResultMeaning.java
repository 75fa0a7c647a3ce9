package dev.lipa.rails.daraja.result;

/**
 * What one Daraja result code means for the platform.
 *
 * @param code Daraja's code as text
 * @param outcome paid, failed, or not a verdict on the payment at all
 * @param reason why it failed (null unless {@code outcome} is FAILED)
 * @param retryWorthIt whether a new attempt (a new request, never a resend of an UNKNOWN one) can succeed without
 *     someone first changing the configuration; the platform decides whether and when
 * @param description Daraja's documented description
 */
public record ResultMeaning(String code, Outcome outcome, FailureReason reason, boolean retryWorthIt,
    String description) {

  /** What a result says about the payment. */
  public enum Outcome {
    SUCCEEDED,
    FAILED,
    /**
     * Not a verdict on the payment: B2C/B2B code 15, "Duplicate Detected", answers a request whose
     * OriginatorConversationID Daraja has seen, which says nothing about the first one (settle by Transaction Status);
     * STK code 4999, "still under processing", answers a query before the customer did (ask again).
     */
    UNSETTLED
  }
}
