package dev.lipa.checkout.session;

import dev.lipa.common.json.JsonFields;
import dev.lipa.common.json.Money;
import dev.lipa.common.web.FieldErrors;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A merchant's request for a checkout session, valid by construction: {@link #from(JsonNode)} checks every field and
 * refuses the request naming every failing field. Unknown fields are ignored.
 */
public record CreateSessionRequest(
    BigDecimal amount,
    CheckoutCurrency currency,
    String currencyCode,
    String description,
    String successUrl,
    String cancelUrl,
    List<PaymentMethod> paymentMethods,
    String externalReference,
    String customerEmail,
    String customerPhone,
    String paymentReference,
    String callbackUrl) {

  public static final int DESCRIPTION_MAX = 255;
  public static final int URL_MAX = 2048;
  public static final int REFERENCE_MAX = 128;
  public static final int EMAIL_MAX = 254;
  /** Storage bound: exact in a Decimal128 and in clients that read JSON numbers as doubles. */
  public static final BigDecimal AMOUNT_MAX = new BigDecimal("999999999999");

  private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
      + "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+");
  /** E.164: a plus sign, a country code that does not start with 0, at most 15 digits in all. */
  private static final Pattern PHONE = Pattern.compile("\\+[1-9]\\d{7,14}");

  public static CreateSessionRequest from(JsonNode body) {
    JsonFields fields = JsonFields.of(body);
    FieldErrors errors = fields.errors();

    String currencyCode = fields.text("currency", true, 0);
    CheckoutCurrency currency = null;
    if (currencyCode != null) {
      if (!CURRENCY.matcher(currencyCode).matches()) {
        errors.add("currency", "currency must be a three-letter code in capitals, such as KES");
      } else {
        currency = CheckoutCurrency.of(currencyCode).orElse(null);
        if (currency == null) {
          errors.add("currency", "currency " + currencyCode + " is not supported; use one of "
              + CheckoutCurrency.codes());
        }
      }
    }

    // bounded on digits and scale first (1e100000000 is a 400, never arithmetic), then by the currency's decimals
    BigDecimal amount = fields.positiveAmount("amount", true, Money.MAX_DECIMALS, AMOUNT_MAX);
    if (amount != null && currency != null && !currency.allowsScaleOf(amount)) {
      errors.add("amount", currency.decimals() == 0
          ? "amount must be a whole number in " + currency.name()
          : "amount must have at most " + currency.decimals() + " decimals in " + currency.name());
      amount = null;
    }

    String description = fields.text("description", true, DESCRIPTION_MAX);
    String successUrl = url(fields, "successUrl", true);
    String cancelUrl = url(fields, "cancelUrl", true);
    List<PaymentMethod> methods = methods(body.get("paymentMethods"), currency, errors);
    if (amount != null && methods != null && methods.contains(PaymentMethod.MPESA_STK)
        && amount.stripTrailingZeros().scale() > 0) {
      errors.add("amount", "amount must be a whole number when MPESA_STK is offered");
      amount = null;
    }

    String externalReference = fields.text("externalReference", false, REFERENCE_MAX);
    String paymentReference = fields.text("paymentReference", false, REFERENCE_MAX);
    String email = fields.text("customerEmail", false, EMAIL_MAX);
    if (email != null && !EMAIL.matcher(email).matches()) {
      errors.add("customerEmail", "customerEmail must be a valid email address");
      email = null;
    }
    String phone = fields.text("customerPhone", false, 0);
    if (phone != null && !PHONE.matcher(phone).matches()) {
      errors.add("customerPhone",
          "customerPhone must be in international format: + and the country code, then the number, e.g. +254712345678");
      phone = null;
    }
    String callbackUrl = url(fields, "callbackUrl", false);

    errors.throwIfAny();
    return new CreateSessionRequest(amount, currency, currencyCode, description, successUrl, cancelUrl, methods,
        externalReference, email, phone, paymentReference, callbackUrl);
  }

  private static List<PaymentMethod> methods(JsonNode node, CheckoutCurrency currency, FieldErrors errors) {
    String field = "paymentMethods";
    if (node == null || node.isNull() || node.isMissingNode()) {
      errors.add(field, "paymentMethods is required");
      return null;
    }
    if (!node.isArray()) {
      errors.add(field, "paymentMethods must be an array of strings");
      return null;
    }
    if (node.isEmpty()) {
      errors.add(field, "paymentMethods must name at least one method");
      return null;
    }
    Set<PaymentMethod> methods = new LinkedHashSet<>();
    boolean ok = true;
    for (JsonNode element : node) {
      if (!element.isString()) {
        errors.add(field, "paymentMethods must contain only strings");
        ok = false;
        continue;
      }
      String code = element.stringValue();
      PaymentMethod method = PaymentMethod.of(code).orElse(null);
      if (method == null) {
        errors.add(field, "payment method " + code + " is not supported; use CARD or MPESA_STK");
        ok = false;
      } else if (!methods.add(method)) {
        errors.add(field, "payment method " + code + " is listed more than once");
        ok = false;
      } else if (currency != null && !currency.supports(method)) {
        errors.add(field, "payment method " + code + " is not available for " + currency.name()
            + "; " + currency.name() + " takes " + currency.supportedMethods());
        ok = false;
      }
    }
    return ok ? new ArrayList<>(methods) : null;
  }

  private static String url(JsonFields fields, String field, boolean required) {
    String text = fields.text(field, required, URL_MAX);
    if (text != null && !isAbsoluteHttpUrl(text)) {
      fields.errors().add(field, field + " must be an absolute http or https URL");
      return null;
    }
    return text;
  }

  static boolean isAbsoluteHttpUrl(String text) {
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null && !uri.getHost().isBlank()
          && uri.getRawUserInfo() == null;
    } catch (URISyntaxException e) {
      return false;
    }
  }
}
