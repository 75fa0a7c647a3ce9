package dev.lipa.common.json;

import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.exc.StreamConstraintsException;

/**
 * Why Jackson could not read a body: a value it refused is named by its field (so that {@code {"amount":NaN}} is a
 * 400 naming {@code amount}, like every other amount refusal): NaN and Infinity, a number out of range, a key given
 * twice. A broken structure (cut off, a stray comma) or a limit of {@link JsonLimits} is named {@code body}.
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
    // a value the reader refused is the field's fault; a broken structure (cut off, a stray comma) is the body's
    String field = fieldOf(e);
    String original = String.valueOf(e.getOriginalMessage());
    if (field != null && original.startsWith(BoundedNumbersModule.OUT_OF_RANGE)) {
      return new UnreadableJson(field, field + " is out of range");
    }
    if (field != null && original.contains("Non-standard token")) {
      return new UnreadableJson(field, field + " must be a JSON number (NaN and Infinity are not numbers)");
    }
    if (field != null && original.startsWith("Duplicate")) {
      return new UnreadableJson(field, field + " must appear only once");
    }
    return new UnreadableJson(BODY, "body must be a valid JSON object");
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
