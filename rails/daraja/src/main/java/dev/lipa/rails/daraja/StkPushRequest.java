package dev.lipa.rails.daraja;

import java.math.BigDecimal;
import java.net.URI;

/**
 * One STK push (M-Pesa Express) as the platform asks for it, already held to Daraja's limits.
 *
 * @param type paybill or buy goods
 * @param partyB the credit party: the paybill (normally the shortcode itself) or, for buy goods, the till, which may
 *     differ from the {@code BusinessShortCode} the push is made with; null means the configured shortcode
 * @param amount whole shillings (a fractional amount is refused, never rounded)
 * @param phoneNumber the customer's number, normalised to {@code 2547XXXXXXXX}/{@code 2541XXXXXXXX}
 * @param accountReference shown to the customer in the prompt; at most 12 characters
 * @param transactionDesc at most 13 characters; optional
 * @param callbackUrl this push's own CallBackURL (a path that names the record, so that even a push whose answer was
 *     lost can be matched); null means the configured one
 */
public record StkPushRequest(StkTransactionType type, String partyB, BigDecimal amount, String phoneNumber,
    String accountReference, String transactionDesc, URI callbackUrl) {

  public StkPushRequest {
    if (type == null) {
      throw new DarajaFieldException("TransactionType", "is required");
    }
    if (partyB != null) {
      DarajaFields.shortcode("PartyB", partyB);
    }
    DarajaFields.wholeAmount("Amount", amount);
    phoneNumber = DarajaFields.msisdn("PhoneNumber", phoneNumber);
    DarajaFields.bounded("AccountReference", accountReference, DarajaFields.STK_ACCOUNT_REFERENCE_MAX);
    DarajaFields.boundedOptional("TransactionDesc", transactionDesc, DarajaFields.STK_TRANSACTION_DESC_MAX);
  }

  /** A paybill push to the configured shortcode. */
  public static StkPushRequest payBill(BigDecimal amount, String phoneNumber, String accountReference,
      String transactionDesc) {
    return new StkPushRequest(StkTransactionType.CUSTOMER_PAY_BILL_ONLINE, null, amount, phoneNumber,
        accountReference, transactionDesc, null);
  }

  /** A buy-goods push: the money goes to {@code till}, made with the configured (head office) shortcode. */
  public static StkPushRequest buyGoods(String till, BigDecimal amount, String phoneNumber, String accountReference,
      String transactionDesc) {
    if (till == null) {
      throw new DarajaFieldException("PartyB", "a buy-goods push names its till");
    }
    return new StkPushRequest(StkTransactionType.CUSTOMER_BUY_GOODS_ONLINE, till, amount, phoneNumber,
        accountReference, transactionDesc, null);
  }

  /** The same push with its own CallBackURL. */
  public StkPushRequest withCallbackUrl(URI url) {
    return new StkPushRequest(type, partyB, amount, phoneNumber, accountReference, transactionDesc, url);
  }
}
