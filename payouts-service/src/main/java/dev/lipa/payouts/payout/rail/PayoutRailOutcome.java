package dev.lipa.payouts.payout.rail;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;

/**
 * What a rail reports about a payout: its acceptance of the request ({@code conversationId}, {@code responseCode})
 * and the result ({@code resultCode} 0 is success, with a receipt and the receiver's name as the provider shows it).
 */
public record PayoutRailOutcome(OrganisationId organisationId, RequestId requestId, String conversationId,
    int responseCode, String responseDescription, int resultCode, String resultDescription, String transactionReceipt,
    String receiverName) {

  public boolean successful() {
    return resultCode == 0;
  }
}
