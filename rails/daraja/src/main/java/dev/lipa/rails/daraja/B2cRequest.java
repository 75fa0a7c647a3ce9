package dev.lipa.rails.daraja;

import java.math.BigDecimal;

/**
 * One B2C payment (v3) to a customer's phone, already held to Daraja's limits.
 *
 * @param originatorConversationId our id of the payout, stored before sending: it is how Transaction Status finds
 *     the payout when its answer is lost (and Daraja refuses a second request with it)
 * @param command SalaryPayment, BusinessPayment or PromotionPayment
 * @param amount whole shillings
 * @param phoneNumber the receiver, normalised to {@code 2547XXXXXXXX}/{@code 2541XXXXXXXX}
 * @param remarks 2 to 100 characters
 * @param occasion optional, at most 100 characters
 */
public record B2cRequest(String originatorConversationId, B2cCommand command, BigDecimal amount, String phoneNumber,
    String remarks, String occasion) {

  public B2cRequest {
    DarajaFields.originatorConversationId(originatorConversationId);
    if (command == null) {
      throw new DarajaFieldException("CommandID", "is required");
    }
    DarajaFields.wholeAmount("Amount", amount);
    phoneNumber = DarajaFields.msisdn("PartyB", phoneNumber);
    DarajaFields.remarks(remarks);
    DarajaFields.boundedOptional("Occassion", occasion, DarajaFields.OCCASION_MAX);
  }

  /** Daraja's B2C {@code CommandID}. */
  public enum B2cCommand {
    SalaryPayment, BusinessPayment, PromotionPayment
  }
}
