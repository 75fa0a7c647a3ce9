package dev.lipa.common.rail;

import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The rules of an operator's body configuring a rail's shortcode (collections' STK shortcodes, payouts' B2C/B2B ones):
 * known fields only (a typo is not silently dropped), secrets as they are (no trimming: a secret is used exactly as
 * typed, printable ASCII only), and never a password.
 */
public final class ShortcodeFields {

  public static final Pattern SHORTCODE = Pattern.compile("[0-9]{5,9}");
  public static final int SECRET_MAX = 512;
  private static final Pattern PRINTABLE = Pattern.compile("[\\x21-\\x7E]+");
  public static final String NO_PASSWORD = "the initiator's password is never accepted: send the security credential made "
      + "from it with Safaricom's certificate (docs/going-live.md)";

  private final JsonNode body;
  private final FieldErrors errors = new FieldErrors();

  private ShortcodeFields(JsonNode body, Set<String> known) {
    this.body = body;
    body.propertyNames().forEach(name -> {
      if (name.toLowerCase(Locale.ROOT).contains("password")) {
        errors.add(name, NO_PASSWORD);
      } else if (!known.contains(name)) {
        errors.add(name, name + " is not a field of a shortcode (known: " + String.join(", ", known) + ")");
      }
    });
  }

  public static ShortcodeFields of(JsonNode body, Set<String> known) {
    if (body == null || !body.isObject()) {
      throw ValidationException.of("body", "must be a JSON object");
    }
    return new ShortcodeFields(body, known);
  }

  public static void checkShortcode(String shortcode) {
    if (shortcode == null || !SHORTCODE.matcher(shortcode).matches()) {
      throw ValidationException.of("shortcode", "shortcode must be 5 to 9 digits");
    }
  }

  public FieldErrors errors() {
    return errors;
  }

  /** A secret as typed; null when absent (then {@code required} decides). */
  public String secret(String field, boolean required) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      if (required) {
        errors.add(field, field + " is required");
      }
      return null;
    }
    if (!node.isString()) {
      errors.add(field, field + " must be a string");
      return null;
    }
    String value = node.stringValue();
    if (value.isEmpty() || value.length() > SECRET_MAX || !PRINTABLE.matcher(value).matches()) {
      errors.add(field, field + " must be 1 to " + SECRET_MAX + " printable characters without spaces");
      return null;
    }
    return value;
  }

  /** A plain text field, stripped; null when absent or blank. */
  public String text(String field, boolean required, Pattern pattern, String rule) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull() || (node.isString() && node.stringValue().isBlank())) {
      if (required) {
        errors.add(field, field + " is required");
      }
      return null;
    }
    if (!node.isString() || !pattern.matcher(node.stringValue().strip()).matches()) {
      errors.add(field, field + " " + rule);
      return null;
    }
    return node.stringValue().strip();
  }

  public Boolean bool(String field) {
    JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isBoolean()) {
      errors.add(field, field + " must be true or false");
      return null;
    }
    return node.booleanValue();
  }

  public boolean has(String field) {
    JsonNode node = body.get(field);
    return node != null && !node.isNull();
  }

  public JsonNode node(String field) {
    return body.get(field);
  }
}
