package dev.lipa.checkout.web;

import dev.lipa.checkout.session.CheckoutSessions;
import dev.lipa.checkout.session.IllegalTransitionException;
import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.store.StoreUnavailable;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Renders every failure of the checkout JSON endpoints (merchant API and the hosted page's API, each marked
 * {@link CheckoutJsonApi}) in the spec's checkout
 * error body instead of the platform envelope; ordered before common's envelope advice. A 500 never carries exception
 * text.
 */
@RestControllerAdvice(annotations = CheckoutJsonApi.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
public class CheckoutExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(CheckoutExceptionHandler.class);

  @ExceptionHandler(CheckoutApiException.class)
  ResponseEntity<CheckoutError> refused(CheckoutApiException e) {
    return respond(e.status(), e.body());
  }

  @ExceptionHandler(ValidationException.class)
  ResponseEntity<CheckoutError> invalid(ValidationException e) {
    return respond(HttpStatus.BAD_REQUEST, new CheckoutError("The request has invalid fields", e.errors()));
  }

  @ExceptionHandler(ApiException.class)
  ResponseEntity<CheckoutError> api(ApiException e) {
    return respond(e.status(), CheckoutError.of(e.getMessage()));
  }

  @ExceptionHandler(CheckoutSessions.UnknownSessionException.class)
  ResponseEntity<CheckoutError> unknown(CheckoutSessions.UnknownSessionException e) {
    return respond(HttpStatus.NOT_FOUND, CheckoutError.of("checkout session not found"));
  }

  @ExceptionHandler(IllegalTransitionException.class)
  ResponseEntity<CheckoutError> illegal(IllegalTransitionException e) {
    return respond(HttpStatus.CONFLICT, CheckoutError.of("this checkout session does not accept that now"));
  }

  @ExceptionHandler(InvalidTokenException.class)
  ResponseEntity<CheckoutError> unauthenticated(InvalidTokenException e) {
    return respond(HttpStatus.UNAUTHORIZED, CheckoutError.of(InvalidTokenException.PUBLIC_MESSAGE));
  }

  @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
  ResponseEntity<CheckoutError> mediaType(HttpMediaTypeNotSupportedException e) {
    return respond(HttpStatus.UNSUPPORTED_MEDIA_TYPE, CheckoutBodies.UNSUPPORTED_MEDIA_TYPE);
  }

  @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
  ResponseEntity<CheckoutError> method(HttpRequestMethodNotSupportedException e) {
    return respond(HttpStatus.METHOD_NOT_ALLOWED, CheckoutError.of("Method " + e.getMethod() + " is not allowed here"));
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<CheckoutError> unexpected(Exception e) {
    if (StoreUnavailable.causedBy(e)) { // the store is away: try again (never a 500), as common's envelope says too
      log.warn("store unavailable: {}", e.toString());
      return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1")
          .contentType(MediaType.APPLICATION_JSON).body(CheckoutError.of(StoreUnavailable.MESSAGE));
    }
    log.error("unexpected failure", e);
    return respond(HttpStatus.INTERNAL_SERVER_ERROR,
        CheckoutError.of("Internal error; quote the X-Correlation-Id header to support"));
  }

  private static ResponseEntity<CheckoutError> respond(HttpStatus status, CheckoutError body) {
    return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
  }
}
