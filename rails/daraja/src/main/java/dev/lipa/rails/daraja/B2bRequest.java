package dev.lipa.rails.daraja;

import java.math.BigDecimal;

/**
 * One B2B payment to a paybill (BusinessPayBill, with its account number) or a till (BusinessBuyGoods).
 *
 * @param originatorConversationId our id of the payout, sent as {@code OriginatorConversationID} (the B2B pages do not
 *     list the field; see docs/going-live.md) and used to settle an UNKNOWN payout by Transaction Status
 * @param partyB the paybill or till receiving the money
 * @param accountReference the paybill's account number, at most 13 characters; required for BusinessPayBill
 * @param requester optional: the customer on whose behalf the business pays
 */
public record B2bRequest(String originatorConversationId, B2bCommand command, String partyB, BigDecimal amount,
    String accountReference, String requester, String remarks) {

  public B2bRequest {
    DarajaFields.originatorConversationId(originatorConversationId);
    if (command == null) {
      throw new DarajaFieldException("CommandID", "is required");
    }
    DarajaFields.shortcode("PartyB", partyB);
    DarajaFields.wholeAmount("Amount", amount);
    if (command == B2bCommand.BusinessPayBill) {
      DarajaFields.bounded("AccountReference", accountReference, DarajaFields.B2B_ACCOUNT_REFERENCE_MAX);
    } else {
      DarajaFields.boundedOptional("AccountReference", accountReference, DarajaFields.B2B_ACCOUNT_REFERENCE_MAX);
    }
    requester = requester == null ? null : DarajaFields.msisdn("Requester", requester);
    DarajaFields.remarks(remarks);
  }

  /** Daraja's B2B {@code CommandID}s the platform uses. */
  public enum B2bCommand {
    BusinessPayBill, BusinessBuyGoods
  }
}
