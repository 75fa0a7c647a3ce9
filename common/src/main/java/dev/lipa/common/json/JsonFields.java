package dev.lipa.common.json;

import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import java.math.BigDecimal;
import tools.jackson.databind.JsonNode;

/**
 * Reads the fields of a JSON request body by hand, so that a wrong type is a precise field error (never a 500 and
 * never a silent coercion: {@code "10"} is not a number and {@code 10.5} is not a whole number).
 *
 * <p>Every reader returns {@code null} when the field is absent or wrong, having recorded why in {@link #errors()}.
 */
public final class JsonFields {

  private final JsonNode body;
  private final FieldErrors errors = new FieldErrors();

  private JsonFields(JsonNode body) {
    this.body = body;
  }

  /** Starts reading a body; anything but a JSON object is refused at once. */
  public static JsonFields of(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ValidationException.of("body", "must be a JSON object");
    }
    return new JsonFields(body);
  }

  public FieldErrors errors() {
    return errors;
  }

  /** A string field; blank counts as absent. {@code maxLength} 0 means unbounded. */
  public String text(String field, boolean required, int maxLength) {
    JsonNode node = body.get(field);
    if (absent(node)) {
      if (required) {
        errors.add(field, field + " is required");
      }
      return null;
    }
    if (!node.isString()) {
      errors.add(field, field + " must be a string");
      return null;
    }
    String value = node.stringValue().strip();
    if (value.isEmpty()) {
      if (required) {
        errors.add(field, field + " is required");
      }
      return null;
    }
    if (maxLength > 0 && value.length() > maxLength) {
      errors.add(field, field + " must be at most " + maxLength + " characters");
      return null;
    }
    return value;
  }

  /**
   * A JSON number greater than zero and at most {@link Money#MAX}. {@code wholeOnly} refuses any fractional part (10.5)
   * but accepts 10.0 and returns it as 10; otherwise up to {@link Money#MAX_DECIMALS} decimals are accepted.
   */
  public BigDecimal positiveAmount(String field, boolean required, boolean wholeOnly) {
    return positiveAmount(field, required, wholeOnly ? 0 : Money.MAX_DECIMALS, Money.MAX);
  }

  /**
   * A JSON number greater than zero, at most {@code max}, with at most {@code decimals} digits after the point (a whole
   * amount, {@code decimals} 0, is returned with scale 0). Bounded by {@link Money#refusal} before anything else is
   * done with it, so {@code 1e100000000} is a field error, not a hundred million digits.
   */
  public BigDecimal positiveAmount(String field, boolean required, int decimals, BigDecimal max) {
    JsonNode node = body.get(field);
    if (absent(node)) {
      if (required) {
        errors.add(field, field + " is required");
      }
      return null;
    }
    if (!node.isNumber()) {
      errors.add(field, field + " must be a number, not " + describe(node));
      return null;
    }
    if (!Money.isFinite(node)) {
      errors.add(field, field + " must be a finite number");
      return null;
    }
    BigDecimal value = node.decimalValue();
    String refusal = Money.refusal(field, value, decimals, max);
    if (refusal != null) {
      errors.add(field, refusal);
      return null;
    }
    return decimals == 0 ? Money.whole(value) : value;
  }

  private static boolean absent(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode();
  }

  private static String describe(JsonNode node) {
    if (node.isString()) {
      return "a string";
    }
    if (node.isBoolean()) {
      return "a boolean";
    }
    if (node.isArray()) {
      return "an array";
    }
    return "an object";
  }
}
