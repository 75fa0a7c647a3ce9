package dev.lipa.collections.stk;

import dev.lipa.common.json.JsonFields;
import dev.lipa.common.json.Money;
import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.phone.MobileNumber;
import dev.lipa.common.web.FieldErrors;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A merchant's request for an STK push, valid by construction: {@link #from(JsonNode)} checks every field at once and
 * refuses the whole request with every failing field named.
 *
 * <p>The currency picks the country and its rules: KSH (default) needs {@code accountReference}; TZS needs
 * {@code channel} (TZ-TIGO-C2B or TZ-AIRTEL-C2B) and a number of that network; UGX needs {@code narration} and
 * {@code customerName}. The phone number must be a mobile number of the currency's country. A field that belongs to
 * another country is ignored ({@code channel} for KSH, {@code narration} for TZS…), except {@code accountReference},
 * which is checked and kept whenever it is given. Unknown fields are ignored.
 */
public record StkPushRequest(
    String description,
    MobileNumber phoneNumber,
    BigDecimal amount,
    String accountReference,
    String callbackUrl,
    StkCurrency currency,
    String referenceId,
    TzChannel channel,
    String narration,
    String customerName) {

  static final int DESCRIPTION_MAX = 13;
  static final int ACCOUNT_REFERENCE_MAX = 12;
  static final int REFERENCE_ID_MAX = 64;
  static final int CALLBACK_URL_MAX = 2048;
  /** Not in the spec; bounded so that a record stays small. */
  static final int NARRATION_MAX = 100;
  static final int CUSTOMER_NAME_MAX = 100;
  /**
   * Not a spec rule but a storage one: amounts must fit a Decimal128 exactly and stay exact for clients that read
   * JSON numbers as doubles (below 2^53); the platform's ceiling for every money field.
   */
  static final BigDecimal AMOUNT_MAX = Money.MAX;
  private static final Pattern ALPHANUMERIC = Pattern.compile("[A-Za-z0-9]+");

  /** A Kenyan request without the fields of other countries (tests and fixtures). */
  public StkPushRequest(String description, MobileNumber phoneNumber, BigDecimal amount, String accountReference,
      String callbackUrl, StkCurrency currency, String referenceId) {
    this(description, phoneNumber, amount, accountReference, callbackUrl, currency, referenceId, null, null, null);
  }

  /** Reads and checks a request body; throws a {@link dev.lipa.common.web.ValidationException} naming every field. */
  public static StkPushRequest from(JsonNode body) {
    return read(body, true);
  }

  /**
   * Reads and checks the request another platform service makes on behalf of an organisation (checkout-service's
   * M-Pesa payments): the merchant's rules, except that there is no callback (the caller follows the outcome on
   * payments.collections.v1, so a {@code callbackUrl} in the body is ignored and none is kept), and that a TZS request
   * without a {@code channel} takes the channel of the number's network. Throws a
   * {@link dev.lipa.common.web.ValidationException} naming every failing field.
   */
  public static StkPushRequest fromPlatform(JsonNode body) {
    return read(body, false);
  }

  private static StkPushRequest read(JsonNode body, boolean fromMerchant) {
    JsonFields fields = JsonFields.of(body);
    FieldErrors errors = fields.errors();

    String description = fields.text("description", true, DESCRIPTION_MAX);

    String currencyCode = fields.text("currencyCode", false, 0);
    StkCurrency currency = StkCurrency.DEFAULT;
    if (currencyCode != null) {
      currency = StkCurrency.of(currencyCode).orElse(null);
      if (currency == null) {
        errors.add("currencyCode", "currencyCode must be one of " + StkCurrency.codes());
      }
    }

    String phoneText = fields.text("phoneNumber", true, 0);
    MobileNumber phone = null;
    if (phoneText != null && currency != null) {
      phone = phoneNumber(phoneText, currency, errors);
    } else if (phoneText != null && MobileNumber.parseAny(phoneText).isEmpty()) {
      // without a currency the country is unknown; still name a number that is no STK country's
      errors.add("phoneNumber", "phoneNumber must be a Kenyan, Tanzanian or Ugandan mobile number");
    }

    BigDecimal amount = fields.positiveAmount("amount", true, 0, AMOUNT_MAX);

    // an unknown currency has no rules: hold the reference to the strictest ones, so the merchant sees its problems
    // in one answer
    boolean referenceRequired = currency == null || currency.accountReferenceRequired();
    String accountReference = fields.text("accountReference", referenceRequired, ACCOUNT_REFERENCE_MAX);
    if (accountReference != null && !ALPHANUMERIC.matcher(accountReference).matches()) {
      errors.add("accountReference", "accountReference must contain only letters and digits");
      accountReference = null;
    }

    String callbackUrl = fromMerchant ? fields.text("callbackUrl", true, CALLBACK_URL_MAX) : null;
    if (callbackUrl != null && !isAbsoluteHttpUrl(callbackUrl)) {
      errors.add("callbackUrl", "callbackUrl must be an absolute http or https URL");
      callbackUrl = null;
    }

    String referenceId = fields.text("referenceId", false, REFERENCE_ID_MAX);

    TzChannel channel = null;
    if (currency != null && currency.channelRequired() && !fromMerchant && !body.hasNonNull("channel")) {
      // the platform's caller asks for the number's own network
      channel = phone == null ? null : TzChannel.reaching(phone).orElse(null);
      if (phone != null && channel == null) {
        errors.add("phoneNumber", "phoneNumber " + phone.value() + " belongs to " + TzChannel.networkOf(phone)
            + "; only " + TzChannel.networks() + " numbers can be prompted");
        phone = null;
      }
    } else if (currency != null && currency.channelRequired()) {
      String channelCode = fields.text("channel", true, 0);
      if (channelCode != null) {
        channel = TzChannel.of(channelCode).orElse(null);
        if (channel == null) {
          errors.add("channel", "channel must be " + TzChannel.codes());
        } else if (phone != null && !channel.reaches(phone)) {
          errors.add("phoneNumber", "phoneNumber " + phone.value() + " belongs to " + TzChannel.networkOf(phone)
              + "; channel " + channel.code() + " takes " + channel.network() + " numbers (255 followed by "
              + channel.sortedPrefixes() + ")");
          phone = null;
        }
      }
    }

    String narration = null;
    String customerName = null;
    if (currency != null && currency.narrationAndCustomerNameRequired()) {
      narration = fields.text("narration", true, NARRATION_MAX);
      customerName = fields.text("customerName", true, CUSTOMER_NAME_MAX);
    }

    errors.throwIfAny();
    return new StkPushRequest(description, phone, amount, accountReference, callbackUrl, currency, referenceId,
        channel, narration, customerName);
  }

  private static MobileNumber phoneNumber(String text, StkCurrency currency, FieldErrors errors) {
    MobileCountry country = currency.country();
    MobileNumber phone = MobileNumber.parse(text, country).orElse(null);
    if (phone == null) {
      String expected = "phoneNumber must be a " + country.adjective() + " mobile number";
      errors.add("phoneNumber", MobileNumber.otherCountryOf(text, country)
          .map(other -> expected + " for " + currency.name() + "; " + text + " is a " + other.adjective() + " number")
          .orElse(expected + " (" + country.forms() + ")"));
    }
    return phone;
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
