package dev.lipa.common.web;

import org.springframework.http.HttpStatus;

/** A refusal with an HTTP status and a message that is safe to show the caller. */
public class ApiException extends RuntimeException {

  private final HttpStatus status;

  public ApiException(HttpStatus status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  public HttpStatus status() {
    return status;
  }

  public static ApiException notFound(String message) {
    return new ApiException(HttpStatus.NOT_FOUND, message);
  }

  public static ApiException conflict(String message) {
    return new ApiException(HttpStatus.CONFLICT, message);
  }

  public static ApiException badRequest(String message) {
    return new ApiException(HttpStatus.BAD_REQUEST, message);
  }
}
