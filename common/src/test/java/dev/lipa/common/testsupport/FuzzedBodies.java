package dev.lipa.common.testsupport;

import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.json.UnreadableJson;
import dev.lipa.common.web.ValidationException;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every fuzz test of a request parser checks: bytes read as the platform reads a body, then given to the parser,
 * end in a value, a validation error naming its fields, or a read error naming where it stopped. Any other exception
 * (a NumberFormatException, an ArithmeticException, a NullPointerException…) is a finding.
 */
public final class FuzzedBodies {

  /** The platform's mapper, limits included, as Spring builds it for every service. */
  public static final JsonMapper JSON = PlatformJson.builder().build();

  private FuzzedBodies() {
  }

  /** The body as a tree, or null when it is refused as unreadable (having checked the refusal names its place). */
  public static JsonNode read(byte[] body) {
    try {
      return JSON.readTree(body);
    } catch (JacksonException e) {
      if (UnreadableJson.of(e).isEmpty()) {
        throw new AssertionError("a read failure the 400 cannot describe", e);
      }
      return null;
    }
  }

  /** Reads the body and parses it; fails on any outcome but a value or a validation error. */
  public static <T> void parse(byte[] body, Function<JsonNode, T> parser) {
    JsonNode tree = read(body);
    if (tree == null) {
      return;
    }
    try {
      if (parser.apply(tree) == null) {
        throw new AssertionError("the parser returned nothing and refused nothing");
      }
    } catch (ValidationException e) {
      if (e.errors().isEmpty()) {
        throw new AssertionError("a validation error that names no field", e);
      }
    }
  }
}
