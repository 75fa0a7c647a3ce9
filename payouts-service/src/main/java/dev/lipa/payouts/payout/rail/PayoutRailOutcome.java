package dev.lipa.payouts.payout.rail;

import java.util.UUID;

/**
 * What a rail reports about a payout: its acceptance of the request ({@code conversationId}, {@code responseCode})
 * and the result ({@code resultCode} 0 is success, with a receipt and the receiver's name as the provider shows it).
 */
public record PayoutRailOutcome(String organisationId, UUID requestId, String conversationId, int responseCode,
    String responseDescription, int resultCode, String resultDescription, String transactionReceipt,
    String receiverName) {

  public boolean successful() {
    return resultCode == 0;
  }
}
