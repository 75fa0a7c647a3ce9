package dev.lipa.collections.stk.rail;

import java.util.UUID;

/**
 * What a rail reports about a prompt: its acceptance of the request (Daraja's synchronous answer: its ids and
 * response code) and the customer's result ({@code resultCode} 0 is success, with a receipt).
 */
public record StkRailOutcome(
    String organisationId,
    UUID requestId,
    String merchantRequestId,
    String checkoutRequestId,
    int responseCode,
    String responseDescription,
    String customerMessage,
    int resultCode,
    String resultDescription,
    String receipt) {

  public boolean successful() {
    return resultCode == 0;
  }
}
