package dev.lipa.common.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * The {@code status}/{@code message}/{@code data} envelope of the merchant API; validation failures add an
 * {@code errors} map (field to messages).
 */
@JsonPropertyOrder({"status", "message", "data", "errors"})
public record Envelope<T>(
    int status,
    String message,
    @JsonInclude(JsonInclude.Include.ALWAYS) T data,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, List<String>> errors) {

  public static <T> Envelope<T> of(HttpStatus status, String message, T data) {
    return new Envelope<>(status.value(), message, data, null);
  }

  public static <T> Envelope<T> ok(String message, T data) {
    return of(HttpStatus.OK, message, data);
  }

  public static <T> Envelope<T> created(String message, T data) {
    return of(HttpStatus.CREATED, message, data);
  }

  public static Envelope<Void> error(HttpStatus status, String message) {
    return new Envelope<>(status.value(), message, null, null);
  }

  public static Envelope<Void> invalid(String message, Map<String, List<String>> errors) {
    return new Envelope<>(HttpStatus.BAD_REQUEST.value(), message, null, errors);
  }
}
