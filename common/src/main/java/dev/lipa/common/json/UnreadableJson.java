package dev.lipa.common.json;

import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.exc.StreamConstraintsException;

/**
 * Why Jackson could not read a body, named by the field it was reading when it stopped (so that
 * {@code {"amount":NaN}} is a 400 naming {@code amount}, like every other amount refusal), or by {@code body} when it
 * was not in a field or a limit of {@link JsonLimits} was passed.
 *
 * @param field the field (a dotted path for nested ones, e.g. {@code data.amount}) or {@code body}
 * @param message a message safe to show the caller
 */
public record UnreadableJson(String field, String message) {

  public static final String BODY = "body";

  /** The reading failure among the causes of {@code failure}, if there is one. */
  public static Optional<UnreadableJson> of(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof JacksonException e) {
        return Optional.of(describe(e));
      }
    }
    return Optional.empty();
  }

  private static UnreadableJson describe(JacksonException e) {
    if (e instanceof StreamConstraintsException) {
      return new UnreadableJson(BODY, "body exceeds the platform's JSON limits: numbers of at most "
          + JsonLimits.MAX_NUMBER_LENGTH + " characters, strings of at most " + JsonLimits.MAX_STRING_LENGTH
          + ", property names of at most " + JsonLimits.MAX_NAME_LENGTH + ", at most " + JsonLimits.MAX_NESTING_DEPTH
          + " levels of nesting");
    }
    String field = fieldOf(e);
    if (field == null) {
      return new UnreadableJson(BODY, "body must be a valid JSON object");
    }
    String original = String.valueOf(e.getOriginalMessage());
    if (original.startsWith(BoundedNumbersModule.OUT_OF_RANGE)) {
      return new UnreadableJson(field, field + " is out of range");
    }
    if (original.contains("Non-standard token")) {
      return new UnreadableJson(field, field + " must be a JSON number (NaN and Infinity are not numbers)");
    }
    if (original.startsWith("Duplicate")) {
      return new UnreadableJson(field, field + " must appear only once");
    }
    return new UnreadableJson(field, field + " is not valid JSON");
  }

  /** The path the parser stood at, as {@code a.b.0}; null at the top level. */
  private static String fieldOf(JacksonException e) {
    if (!(e.processor() instanceof JsonParser parser)) {
      return null;
    }
    String pointer = parser.streamReadContext().pathAsPointer().toString();
    return pointer.isEmpty() ? null : pointer.substring(1).replace('/', '.');
  }
}
