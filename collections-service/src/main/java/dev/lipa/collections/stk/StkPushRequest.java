package dev.lipa.collections.stk;

import dev.lipa.common.json.JsonFields;
import dev.lipa.common.web.FieldErrors;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A merchant's request for an STK push, valid by construction: {@link #from(JsonNode)} checks every field at once and
 * refuses the whole request with every failing field named. Fields the spec lists for other countries (channel,
 * narration, customerName) and unknown fields are ignored.
 */
public record StkPushRequest(
    String description,
    KenyanMobileNumber phoneNumber,
    BigDecimal amount,
    String accountReference,
    String callbackUrl,
    StkCurrency currency,
    String referenceId) {

  static final int DESCRIPTION_MAX = 13;
  static final int ACCOUNT_REFERENCE_MAX = 12;
  static final int REFERENCE_ID_MAX = 64;
  static final int CALLBACK_URL_MAX = 2048;
  /**
   * Not a spec rule but a storage one: amounts must fit a Decimal128 exactly and stay exact for clients that read
   * JSON numbers as doubles (below 2^53).
   */
  static final BigDecimal AMOUNT_MAX = new BigDecimal("999999999999999");
  private static final Pattern ALPHANUMERIC = Pattern.compile("[A-Za-z0-9]+");

  /** Reads and checks a request body; throws a {@link dev.lipa.common.web.ValidationException} naming every field. */
  public static StkPushRequest from(JsonNode body) {
    JsonFields fields = JsonFields.of(body);
    FieldErrors errors = fields.errors();

    String description = fields.text("description", true, DESCRIPTION_MAX);

    String phoneText = fields.text("phoneNumber", true, 0);
    KenyanMobileNumber phone = null;
    if (phoneText != null) {
      phone = KenyanMobileNumber.parse(phoneText).orElse(null);
      if (phone == null) {
        errors.add("phoneNumber", "phoneNumber must be a Kenyan mobile number (07XXXXXXXX, 01XXXXXXXX, "
            + "2547XXXXXXXX, 2541XXXXXXXX, +2547XXXXXXXX or +2541XXXXXXXX)");
      }
    }

    BigDecimal amount = fields.positiveAmount("amount", true, true);
    if (amount != null && amount.compareTo(AMOUNT_MAX) > 0) {
      errors.add("amount", "amount must be at most " + AMOUNT_MAX.toPlainString());
      amount = null;
    }

    String currencyCode = fields.text("currencyCode", false, 0);
    StkCurrency currency = StkCurrency.DEFAULT;
    if (currencyCode != null) {
      currency = StkCurrency.of(currencyCode).orElse(null);
      if (currency == null) {
        errors.add("currencyCode", "currencyCode must be one of " + StkCurrency.codes());
      }
    }

    // an unknown currency has no rules yet: hold the reference to the strictest ones, so the merchant sees its
    // problems in one answer
    boolean referenceRequired = currency == null || currency.accountReferenceRequired();
    String accountReference = fields.text("accountReference", referenceRequired, ACCOUNT_REFERENCE_MAX);
    if (accountReference != null && !ALPHANUMERIC.matcher(accountReference).matches()) {
      errors.add("accountReference", "accountReference must contain only letters and digits");
      accountReference = null;
    }

    String callbackUrl = fields.text("callbackUrl", true, CALLBACK_URL_MAX);
    if (callbackUrl != null && !isAbsoluteHttpUrl(callbackUrl)) {
      errors.add("callbackUrl", "callbackUrl must be an absolute http or https URL");
      callbackUrl = null;
    }

    String referenceId = fields.text("referenceId", false, REFERENCE_ID_MAX);

    errors.throwIfAny();
    return new StkPushRequest(description, phone, amount, accountReference, callbackUrl, currency, referenceId);
  }

  private static boolean isAbsoluteHttpUrl(String text) {
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return uri.isAbsolute() && (scheme.equals("http") || scheme.equals("https"))
          && uri.getHost() != null && !uri.getHost().isBlank();
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
