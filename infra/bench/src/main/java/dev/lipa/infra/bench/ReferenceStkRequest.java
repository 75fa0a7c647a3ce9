package dev.lipa.infra.bench;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A Kenyan STK push body as the reference payment reads it: the checks collections-service makes of the fields the
 * bench sends ({@code StkPushRequest}: description, phoneNumber, a whole amount above 0, accountReference,
 * callbackUrl), and nothing more. The platform also checks the number with libphonenumber and knows other currencies;
 * a form check of a Kenyan mobile number stands for that here.
 *
 * @param phoneNumber normalised: {@code 2547XXXXXXXX} or {@code 2541XXXXXXXX}
 */
record ReferenceStkRequest(String description, String phoneNumber, BigDecimal amount, String accountReference,
    String callbackUrl) {

  static final int DESCRIPTION_MAX = 13;
  static final int ACCOUNT_REFERENCE_MAX = 12;
  static final int CALLBACK_URL_MAX = 2048;
  /** The platform's ceiling of every money field (common's {@code Money.MAX}). */
  static final BigDecimal AMOUNT_MAX = new BigDecimal("999999999999999");
  private static final Pattern KENYAN_MOBILE = Pattern.compile("(?:0|\\+?254)([17]\\d{8})");
  private static final Pattern ALPHANUMERIC = Pattern.compile("[A-Za-z0-9]+");

  /** A body refused, with a message per failing field (the platform's 400 names every one). */
  static final class Refused extends RuntimeException {
    private final Map<String, String> errors;

    Refused(Map<String, String> errors) {
      super("Validation failed", null, false, false);
      this.errors = Collections.unmodifiableMap(new LinkedHashMap<>(errors));
    }

    Map<String, String> errors() {
      return errors;
    }

    /** The errors as the platform's 400 shows them: a list of messages per field. */
    Map<String, List<String>> errorLists() {
      Map<String, List<String>> lists = new LinkedHashMap<>();
      errors.forEach((field, message) -> lists.put(field, List.of(message)));
      return lists;
    }
  }

  /** Reads and checks a body; throws {@link Refused} naming every failing field. */
  static ReferenceStkRequest from(JsonNode body) {
    Map<String, String> errors = new LinkedHashMap<>();
    if (body == null || !body.isObject()) {
      errors.put("body", "the body must be a JSON object");
      throw new Refused(errors);
    }
    String description = text(body, "description", DESCRIPTION_MAX, errors);
    String phone = text(body, "phoneNumber", Integer.MAX_VALUE, errors);
    String phoneNumber = null;
    if (phone != null) {
      Matcher mobile = KENYAN_MOBILE.matcher(phone);
      if (mobile.matches()) {
        phoneNumber = "254" + mobile.group(1);
      } else {
        errors.put("phoneNumber", "phoneNumber must be a Kenyan mobile number");
      }
    }
    BigDecimal amount = amount(body.get("amount"), errors);
    String accountReference = text(body, "accountReference", ACCOUNT_REFERENCE_MAX, errors);
    if (accountReference != null && !ALPHANUMERIC.matcher(accountReference).matches()) {
      errors.put("accountReference", "accountReference must contain only letters and digits");
    }
    String callbackUrl = text(body, "callbackUrl", CALLBACK_URL_MAX, errors);
    if (callbackUrl != null && !isAbsoluteHttpUrl(callbackUrl)) {
      errors.put("callbackUrl", "callbackUrl must be an absolute http or https URL");
    }
    if (!errors.isEmpty()) {
      throw new Refused(errors);
    }
    return new ReferenceStkRequest(description, phoneNumber, amount, accountReference, callbackUrl);
  }

  /** A required, non-blank string of at most {@code max} characters; null (and an error) otherwise. */
  private static String text(JsonNode body, String field, int max, Map<String, String> errors) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull() || (node.isString() && node.stringValue().isBlank())) {
      errors.put(field, field + " is required");
      return null;
    }
    if (!node.isString()) {
      errors.put(field, field + " must be a string");
      return null;
    }
    String value = node.stringValue();
    if (value.length() > max) {
      errors.put(field, field + " must be at most " + max + " characters");
      return null;
    }
    return value;
  }

  /**
   * A JSON number above 0, whole, at most {@link #AMOUNT_MAX}; returned with scale 0. Bounded before anything else is
   * done with it: {@code 1e100000000} is compared by its exponent, never expanded.
   */
  static BigDecimal amount(JsonNode node, Map<String, String> errors) {
    if (node == null || node.isNull()) {
      errors.put("amount", "amount is required");
      return null;
    }
    if (!node.isNumber()) {
      errors.put("amount", "amount must be a number");
      return null;
    }
    if (node.isFloatingPointNumber() && !node.isBigDecimal() && !Double.isFinite(node.doubleValue())) {
      errors.put("amount", "amount must be a finite number");
      return null;
    }
    BigDecimal value = node.decimalValue();
    if (value.signum() <= 0) {
      errors.put("amount", "amount must be greater than 0");
      return null;
    }
    if (value.compareTo(AMOUNT_MAX) > 0) {
      errors.put("amount", "amount must be at most " + AMOUNT_MAX);
      return null;
    }
    BigDecimal whole = value.stripTrailingZeros();
    if (whole.scale() > 0) {
      errors.put("amount", "amount must be a whole number");
      return null;
    }
    return whole.setScale(0);
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
