package dev.lipa.collections.stk.rail;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;

/**
 * What a rail reports about a prompt: its acceptance of the request (Daraja's synchronous answer: its ids and
 * response code) and the customer's result ({@code resultCode} 0 is success, with a receipt; without one only when the
 * rail's query confirmed the payment and named none).
 */
public record StkRailOutcome(
    OrganisationId organisationId,
    RequestId requestId,
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
