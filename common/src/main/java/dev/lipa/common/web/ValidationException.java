package dev.lipa.common.web;

import java.util.List;
import java.util.Map;

/** A request refused for its fields; rendered as a 400 envelope with the {@code errors} map. */
public class ValidationException extends RuntimeException {

  private final Map<String, List<String>> errors;

  public ValidationException(FieldErrors errors) {
    super("The request has invalid fields", null, false, false);
    this.errors = errors.asMap();
  }

  public static ValidationException of(String field, String message) {
    return new ValidationException(new FieldErrors().add(field, message));
  }

  public Map<String, List<String>> errors() {
    return errors;
  }
}
