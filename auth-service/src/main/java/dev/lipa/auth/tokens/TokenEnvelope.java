package dev.lipa.auth.tokens;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * The token endpoints' envelope: {@code status} is the HTTP status's text ({@code "OK"}, {@code "UNAUTHORIZED"}).
 * Success has no {@code message} (as the spec shows); errors have a message, {@code data: null}, and on field
 * failures an {@code errors} map (field to messages).
 */
@JsonPropertyOrder({"status", "message", "data", "errors"})
record TokenEnvelope<T>(
    String status,
    @JsonInclude(JsonInclude.Include.NON_NULL) String message,
    @JsonInclude(JsonInclude.Include.ALWAYS) T data,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, List<String>> errors) {

  static <T> TokenEnvelope<T> ok(T data) {
    return new TokenEnvelope<>(HttpStatus.OK.name(), null, data, null);
  }

  static TokenEnvelope<Void> error(HttpStatus status, String message) {
    return new TokenEnvelope<>(status.name(), message, null, null);
  }

  static TokenEnvelope<Void> invalid(String message, Map<String, List<String>> errors) {
    return new TokenEnvelope<>(HttpStatus.BAD_REQUEST.name(), message, null, errors);
  }
}
