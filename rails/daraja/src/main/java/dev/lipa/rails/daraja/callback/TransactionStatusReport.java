package dev.lipa.rails.daraja.callback;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * What a Transaction Status result says about the transaction asked about. Only {@link Completed} settles a payout as
 * paid; the others settle nothing by themselves (see docs/going-live.md for what the platform does with them).
 */
public sealed interface TransactionStatusReport permits TransactionStatusReport.Completed,
    TransactionStatusReport.NotCompleted, TransactionStatusReport.NotFound {

  /** The transaction went through. */
  record Completed(String receipt, BigDecimal amount, String originatorConversationId, String conversationId)
      implements TransactionStatusReport {
  }

  /** M-Pesa knows the transaction but it did not complete ({@code TransactionStatus} other than Completed). */
  record NotCompleted(String status, String receipt) implements TransactionStatusReport {
  }

  /** The question got a non-zero result: M-Pesa did not find the transaction (or refused the question). */
  record NotFound(String resultCode, String resultDesc) implements TransactionStatusReport {
  }

  /** Reads a Transaction Status result. */
  static TransactionStatusReport of(DarajaResult result) {
    if (!result.successful()) {
      return new NotFound(result.resultCode(), result.resultDesc());
    }
    String status = result.parameter("TransactionStatus").orElse("");
    String receipt = result.parameter("ReceiptNo").orElse(null);
    if (!"Completed".equalsIgnoreCase(status.strip())) {
      return new NotCompleted(status, receipt);
    }
    // the current page names it OriginatorConversationID, older ones "Originator Conversation ID"
    String originator = result.parameter("OriginatorConversationID")
        .or(() -> result.parameter("Originator Conversation ID")).orElse(null);
    String conversation = result.parameter("ConversationID").or(() -> result.parameter("Conversation ID"))
        .orElse(null);
    Optional<BigDecimal> amount = result.parameter("Amount").flatMap(DarajaResult::decimal);
    return new Completed(receipt, amount.orElse(null), originator, conversation);
  }
}
