package dev.lipa.checkout.web;

import dev.lipa.common.json.JsonFields;
import dev.lipa.common.json.UnreadableJson;
import dev.lipa.common.web.ValidationException;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads JSON request bodies of the checkout endpoints by hand, so that a missing or wrong Content-Type and malformed
 * JSON are answered in the checkout error body (Spring's own checks would answer before our advice could choose the
 * shape).
 */
public final class CheckoutBodies {

  /** The answer to a body without {@code Content-Type: application/json}. */
  public static final CheckoutError UNSUPPORTED_MEDIA_TYPE = new CheckoutError("Content-Type must be application/json",
      Map.of("Content-Type", List.of("Content-Type header is required and must be application/json")));

  private CheckoutBodies() {
  }

  /** The body as a JSON object; 415 without {@code Content-Type: application/json}, 400 when it is not JSON. */
  public static JsonNode read(String contentType, byte[] body, JsonMapper json) {
    if (!isJson(contentType)) {
      throw new CheckoutApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, UNSUPPORTED_MEDIA_TYPE.message(),
          UNSUPPORTED_MEDIA_TYPE.errors());
    }
    if (body == null || body.length == 0) {
      throw new CheckoutApiException(HttpStatus.BAD_REQUEST, "The request body is missing",
          Map.of("body", List.of("a JSON object is required")));
    }
    JsonNode tree;
    try {
      tree = json.readTree(body);
    } catch (JacksonException e) {
      // a value the reader refused ({"amount":NaN}) is named like any other field; a broken body is the body
      UnreadableJson problem = UnreadableJson.of(e).orElseThrow();
      throw new CheckoutApiException(HttpStatus.BAD_REQUEST, "The request body is not valid JSON",
          Map.of(problem.field(), List.of(problem.message())));
    }
    try {
      JsonFields.of(tree);
    } catch (ValidationException e) {
      throw new CheckoutApiException(HttpStatus.BAD_REQUEST, "The request body is not a JSON object", e.errors());
    }
    return tree;
  }

  static boolean isJson(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return false;
    }
    try {
      MediaType type = MediaType.parseMediaType(contentType);
      return MediaType.APPLICATION_JSON.equalsTypeAndSubtype(type);
    } catch (RuntimeException e) {
      return false;
    }
  }
}
