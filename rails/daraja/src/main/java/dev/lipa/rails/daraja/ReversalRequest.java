package dev.lipa.rails.daraja;

import java.math.BigDecimal;

/** A reversal of a payment received on our shortcode, named by its M-Pesa receipt. */
public record ReversalRequest(String transactionId, BigDecimal amount, String remarks, String occasion) {

  public ReversalRequest {
    if (transactionId == null || !transactionId.matches("[A-Z0-9]{6,20}")) {
      throw new DarajaFieldException("TransactionID", "must be an M-Pesa receipt (6 to 20 capitals and digits)");
    }
    DarajaFields.wholeAmount("Amount", amount);
    DarajaFields.remarks(remarks);
    DarajaFields.boundedOptional("Occasion", occasion, DarajaFields.OCCASION_MAX);
  }
}
