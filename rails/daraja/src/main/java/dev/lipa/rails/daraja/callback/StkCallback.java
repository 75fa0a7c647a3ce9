package dev.lipa.rails.daraja.callback;

import java.math.BigDecimal;
import java.time.LocalDateTime;

/**
 * Daraja's STK result ({@code Body.stkCallback}), as posted to the push's CallBackURL.
 *
 * @param resultCode Daraja's code as text ({@code "0"} paid; see {@code ResultCodes.stk})
 * @param payment what {@code CallbackMetadata} says about the payment; present exactly when the result is a success
 */
public record StkCallback(String merchantRequestId, String checkoutRequestId, String resultCode, String resultDesc,
    Payment payment) {

  public boolean successful() {
    return "0".equals(resultCode);
  }

  /**
   * The paid details of a successful push.
   *
   * @param amount the amount paid (check it against the record: the callback is untrusted)
   * @param receipt the M-Pesa receipt ({@code MpesaReceiptNumber})
   * @param transactionDate when it completed, Nairobi time; null when absent
   * @param phoneNumber the number that paid (check it against the record)
   */
  public record Payment(BigDecimal amount, String receipt, LocalDateTime transactionDate, String phoneNumber) {
  }
}
