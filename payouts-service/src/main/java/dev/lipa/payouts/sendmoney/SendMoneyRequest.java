package dev.lipa.payouts.sendmoney;

import dev.lipa.common.json.JsonFields;
import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.phone.MobileNumber;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.payout.PayoutKind;
import dev.lipa.payouts.payout.PayoutRequest;
import dev.lipa.payouts.payout.RequestRules;
import java.math.BigDecimal;
import tools.jackson.databind.JsonNode;

/**
 * Reads a send-money (B2C) request, naming every failing field at once. The currency picks the country and its rules:
 * <ul>
 *   <li>KSH (default): a Kenyan mobile number; {@code remarks}, {@code occasion} and {@code callbackUrl} required;</li>
 *   <li>TZS: a Tanzanian mobile number of the {@code serviceCode}'s network; amount at least 1000; {@code narration},
 *       {@code firstName}, {@code lastName}, {@code serviceCode} and {@code callbackUrl} required;</li>
 *   <li>UGX: a Ugandan mobile number; {@code narration}, {@code customerName} and {@code callbackUrl} required.</li>
 * </ul>
 * Every amount is a whole number above 0. Texts are at most 100 characters. Fields of another country are ignored.
 */
public final class SendMoneyRequest {

  static final BigDecimal TZS_MINIMUM = new BigDecimal("1000");

  private SendMoneyRequest() {
  }

  public static PayoutRequest from(JsonNode body) {
    JsonFields fields = JsonFields.of(body);
    FieldErrors errors = fields.errors();

    String currencyCode = fields.text("currencyCode", false, 0);
    Currency currency = Currency.DEFAULT;
    if (currencyCode != null) {
      currency = Currency.payout(currencyCode).orElse(null);
      if (currency == null) {
        errors.add("currencyCode", "currencyCode must be one of " + Currency.payoutCodes());
      }
    }

    String phoneText = fields.text("phoneNumber", true, 0);
    MobileNumber phone = null;
    if (phoneText != null && currency != null) {
      MobileCountry country = currency.country();
      String code = currency.name();
      phone = MobileNumber.parse(phoneText, country).orElse(null);
      if (phone == null) {
        String expected = "phoneNumber must be a " + country.adjective() + " mobile number";
        errors.add("phoneNumber", MobileNumber.otherCountryOf(phoneText, country)
            .map(other -> expected + " for " + code + "; " + phoneText + " is a " + other.adjective()
                + " number")
            .orElse(expected + " (" + country.forms() + ")"));
      }
    }

    BigDecimal amount = RequestRules.amount(fields, currency == Currency.TZS ? TZS_MINIMUM : null,
        currency == null ? null : currency.name());
    String callbackUrl = RequestRules.callbackUrl(fields);
    String referenceId = RequestRules.referenceId(fields);

    String remarks = null;
    String occasion = null;
    String narration = null;
    String firstName = null;
    String lastName = null;
    String customerName = null;
    String serviceCode = null;
    if (currency == Currency.KSH) {
      remarks = fields.text("remarks", true, RequestRules.TEXT_MAX);
      occasion = fields.text("occasion", true, RequestRules.TEXT_MAX);
    } else if (currency == Currency.TZS) {
      narration = fields.text("narration", true, RequestRules.TEXT_MAX);
      firstName = fields.text("firstName", true, RequestRules.TEXT_MAX);
      lastName = fields.text("lastName", true, RequestRules.TEXT_MAX);
      String code = fields.text("serviceCode", true, 0);
      if (code != null) {
        TzServiceCode service = TzServiceCode.of(code).orElse(null);
        if (service == null) {
          errors.add("serviceCode", "serviceCode must be one of " + TzServiceCode.codes());
        } else if (phone != null && !service.reaches(phone)) {
          errors.add("phoneNumber", "phoneNumber " + phone.value() + " is not on the network of serviceCode "
              + service.code() + ", which takes " + service.describe());
        } else {
          serviceCode = service.code();
        }
      }
    } else if (currency == Currency.UGX) {
      narration = fields.text("narration", true, RequestRules.TEXT_MAX);
      customerName = fields.text("customerName", true, RequestRules.TEXT_MAX);
    }
    errors.throwIfAny();
    return new PayoutRequest(PayoutKind.SEND_MONEY, currency, amount, callbackUrl, referenceId, phone.value(), null,
        null, remarks, occasion, narration, firstName, lastName, customerName, serviceCode);
  }
}
