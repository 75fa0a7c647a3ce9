package dev.lipa.common.servlet;

import dev.lipa.common.ratelimit.RateLimitExceededException;
import dev.lipa.common.json.UnreadableJson;
import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.store.StoreUnavailable;
import dev.lipa.common.rail.RailUnavailableException;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.ValidationException;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Maps every failure of a servlet service to the envelope. A 500 never carries exception text: it is logged with the
 * correlation id instead.
 */
@RestControllerAdvice
public class EnvelopeExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(EnvelopeExceptionHandler.class);

  @ExceptionHandler(ValidationException.class)
  ResponseEntity<Envelope<Void>> invalid(ValidationException e) {
    return ResponseEntity.badRequest().body(Envelope.invalid("Validation failed", e.errors()));
  }

  @ExceptionHandler(ApiException.class)
  ResponseEntity<Envelope<Void>> refused(ApiException e) {
    return respond(e.status(), e.getMessage());
  }

  @ExceptionHandler(RailUnavailableException.class)
  ResponseEntity<Envelope<Void>> noRail(RailUnavailableException e) {
    return respond(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
  }

  @ExceptionHandler(RateLimitExceededException.class)
  ResponseEntity<Envelope<Void>> tooMany(RateLimitExceededException e) {
    return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
        .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()))
        .body(Envelope.error(HttpStatus.TOO_MANY_REQUESTS, e.getMessage()));
  }

  @ExceptionHandler(InvalidTokenException.class)
  ResponseEntity<Envelope<Void>> unauthenticated(InvalidTokenException e) {
    return respond(HttpStatus.UNAUTHORIZED, InvalidTokenException.PUBLIC_MESSAGE);
  }

  @ExceptionHandler(HttpMessageNotReadableException.class)
  ResponseEntity<Envelope<Void>> unreadable(HttpMessageNotReadableException e) {
    // where Jackson stopped (a field, or a limit of the body) is named like any other field error
    return UnreadableJson.of(e)
        .map(problem -> ResponseEntity.badRequest().body(Envelope.invalid("The request body is not valid JSON",
            Map.of(problem.field(), List.of(problem.message())))))
        .orElseGet(() -> respond(HttpStatus.BAD_REQUEST, "The request body is missing or is not valid JSON"));
  }

  @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
  ResponseEntity<Envelope<Void>> mediaType(HttpMediaTypeNotSupportedException e) {
    return respond(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/json");
  }

  @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
  ResponseEntity<Envelope<Void>> notAcceptable(HttpMediaTypeNotAcceptableException e) {
    return respond(HttpStatus.NOT_ACCEPTABLE, "This endpoint answers application/json");
  }

  @ExceptionHandler(MissingServletRequestParameterException.class)
  ResponseEntity<Envelope<Void>> missingParameter(MissingServletRequestParameterException e) {
    String name = e.getParameterName();
    return ResponseEntity.badRequest().body(
        Envelope.invalid("Validation failed", Map.of(name, List.of(name + " is required"))));
  }

  @ExceptionHandler(MissingRequestHeaderException.class)
  ResponseEntity<Envelope<Void>> missingHeader(MissingRequestHeaderException e) {
    String name = e.getHeaderName();
    return ResponseEntity.badRequest().body(
        Envelope.invalid("Missing required header " + name, Map.of(name, List.of(name + " header is required"))));
  }

  @ExceptionHandler(MethodArgumentTypeMismatchException.class)
  ResponseEntity<Envelope<Void>> typeMismatch(MethodArgumentTypeMismatchException e) {
    String name = e.getName();
    return ResponseEntity.badRequest().body(
        Envelope.invalid("Validation failed", Map.of(name, List.of(name + " has an invalid value"))));
  }

  @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
  ResponseEntity<Envelope<Void>> method(HttpRequestMethodNotSupportedException e) {
    return respond(HttpStatus.METHOD_NOT_ALLOWED, "Method " + e.getMethod() + " is not allowed here");
  }

  @ExceptionHandler(NoResourceFoundException.class)
  ResponseEntity<Envelope<Void>> noResource(NoResourceFoundException e) {
    return respond(HttpStatus.NOT_FOUND, "Not found");
  }

  /**
   * Everything else is a 500, but for the store being away (unreachable, shutting down, between primaries): that is a
   * 503 with {@code Retry-After: 1}, whatever exception carries it. The request may or may not have been written: a
   * retry with the same {@code referenceId} or {@code Idempotency-Key} is safe.
   */
  @ExceptionHandler(Exception.class)
  ResponseEntity<Envelope<Void>> unexpected(Exception e) {
    if (StoreUnavailable.causedBy(e)) {
      log.warn("store unavailable: {}", e.toString());
      return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1")
          .body(Envelope.error(HttpStatus.SERVICE_UNAVAILABLE, StoreUnavailable.MESSAGE));
    }
    log.error("unexpected failure", e);
    return respond(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error; quote the X-Correlation-Id header to support");
  }

  private static ResponseEntity<Envelope<Void>> respond(HttpStatus status, String message) {
    return ResponseEntity.status(status).body(Envelope.error(status, message));
  }
}
