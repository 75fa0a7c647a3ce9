package dev.lipa.checkout.web;

import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** A refusal of a checkout endpoint, rendered as {@link CheckoutError} with this status. */
public class CheckoutApiException extends RuntimeException {

  private final HttpStatus status;
  private final Map<String, List<String>> errors;

  public CheckoutApiException(HttpStatus status, String message, Map<String, List<String>> errors) {
    super(message, null, false, false);
    this.status = status;
    this.errors = errors;
  }

  public CheckoutApiException(HttpStatus status, String message) {
    this(status, message, Map.of());
  }

  public HttpStatus status() {
    return status;
  }

  public CheckoutError body() {
    return new CheckoutError(getMessage(), errors);
  }
}
