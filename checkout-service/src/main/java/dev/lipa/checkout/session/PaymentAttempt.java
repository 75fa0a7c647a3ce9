package dev.lipa.checkout.session;

import dev.lipa.common.ids.RequestId;
import java.time.Instant;

/**
 * One try by the customer to pay a session. Cards keep only the brand and the last four digits, never the number or
 * the CVC.
 *
 * @param number 1 for the first attempt of the session, then 2, 3…
 * @param stkRequestId collections-service's requestId of the STK push (M-Pesa), once it accepted it
 * @param reason why the attempt failed or was refused, in words fit for the customer
 */
public record PaymentAttempt(int number, PaymentMethod method, Status status, String cardBrand, String cardLast4,
    String phoneNumber, RequestId stkRequestId, String reason, Instant createdAt, Instant updatedAt) {

  /** Where an attempt stands. REJECTED attempts never reached a rail (bad input, rail unavailable) and do not count. */
  public enum Status {
    PROCESSING, REQUIRES_ACTION, SUCCEEDED, FAILED, REJECTED;

    public boolean isOpen() {
      return this == PROCESSING || this == REQUIRES_ACTION;
    }
  }

  PaymentAttempt with(Status newStatus, RequestId newStkRequestId, String newReason, Instant now) {
    return new PaymentAttempt(number, method, newStatus, cardBrand, cardLast4, phoneNumber,
        newStkRequestId == null ? stkRequestId : newStkRequestId, newReason == null ? reason : newReason, createdAt,
        now);
  }
}
