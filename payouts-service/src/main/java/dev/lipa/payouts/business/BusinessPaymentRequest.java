package dev.lipa.payouts.business;

import dev.lipa.common.json.JsonFields;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.payout.PayoutKind;
import dev.lipa.payouts.payout.PayoutRequest;
import dev.lipa.payouts.payout.RequestRules;
import java.math.BigDecimal;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Reads a till or paybill payment (Kenyan shillings only), naming every failing field at once.
 * <ul>
 *   <li>till: {@code businessNumber} (digits, 5 to 10) and {@code callbackUrl} required; {@code accountNumber}
 *       optional, at most 13 characters; {@code remarks} and {@code occasion} optional, at most 100 each;</li>
 *   <li>paybill: {@code businessNumber}, {@code accountNumber} (at most 13), {@code remarks}, {@code occasion} (at
 *       most 100 each) and {@code callbackUrl} all required.</li>
 * </ul>
 * The amount is a whole number of shillings above 0 (M-Pesa moves whole shillings). A {@code currencyCode} other than
 * KSH is refused.
 */
public final class BusinessPaymentRequest {

  static final int ACCOUNT_NUMBER_MAX = 13;
  private static final Pattern BUSINESS_NUMBER = Pattern.compile("\\d{5,10}");

  private BusinessPaymentRequest() {
  }

  public static PayoutRequest till(JsonNode body) {
    return read(PayoutKind.TILL, body);
  }

  public static PayoutRequest paybill(JsonNode body) {
    return read(PayoutKind.PAYBILL, body);
  }

  private static PayoutRequest read(PayoutKind kind, JsonNode body) {
    boolean paybill = kind == PayoutKind.PAYBILL;
    JsonFields fields = JsonFields.of(body);
    FieldErrors errors = fields.errors();
    String currencyCode = fields.text("currencyCode", false, 0);
    if (currencyCode != null && !currencyCode.equals(Currency.KSH.name())) {
      errors.add("currencyCode", "currencyCode must be KSH: " + kind.code() + " payments are in Kenyan shillings");
    }
    String businessNumber = fields.text("businessNumber", true, 0);
    if (businessNumber != null && !BUSINESS_NUMBER.matcher(businessNumber).matches()) {
      errors.add("businessNumber", "businessNumber must be 5 to 10 digits");
      businessNumber = null;
    }
    String accountNumber = fields.text("accountNumber", paybill, ACCOUNT_NUMBER_MAX);
    BigDecimal amount = RequestRules.amount(fields, null, Currency.KSH.name());
    String remarks = fields.text("remarks", paybill, RequestRules.TEXT_MAX);
    String occasion = fields.text("occasion", paybill, RequestRules.TEXT_MAX);
    String callbackUrl = RequestRules.callbackUrl(fields);
    String referenceId = RequestRules.referenceId(fields);
    errors.throwIfAny();
    return new PayoutRequest(kind, Currency.KSH, amount, callbackUrl, referenceId, null, businessNumber,
        accountNumber, remarks, occasion, null, null, null, null, null);
  }
}
