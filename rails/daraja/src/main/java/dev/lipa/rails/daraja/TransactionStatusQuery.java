package dev.lipa.rails.daraja;

/**
 * A Transaction Status question: about the transaction with this M-Pesa receipt, or about the request we sent with this
 * {@code OriginatorConversationID} (how an UNKNOWN payout is settled: we have no receipt for it).
 */
public record TransactionStatusQuery(String transactionId, String originatorConversationId, String remarks) {

  public TransactionStatusQuery {
    if (transactionId == null && originatorConversationId == null) {
      throw new DarajaFieldException("TransactionID", "a receipt or an OriginatorConversationID is required");
    }
    if (transactionId != null && !transactionId.matches("[A-Z0-9]{6,20}")) {
      throw new DarajaFieldException("TransactionID", "must be an M-Pesa receipt (6 to 20 capitals and digits)");
    }
    if (originatorConversationId != null) {
      DarajaFields.originatorConversationId(originatorConversationId);
    }
    remarks = DarajaFields.remarks(remarks == null ? "status query" : remarks);
  }

  /** About the request we sent with this id. */
  public static TransactionStatusQuery byOriginatorConversationId(String id) {
    return new TransactionStatusQuery(null, id, null);
  }

  /** About the transaction with this receipt. */
  public static TransactionStatusQuery byReceipt(String receipt) {
    return new TransactionStatusQuery(receipt, null, null);
  }
}
