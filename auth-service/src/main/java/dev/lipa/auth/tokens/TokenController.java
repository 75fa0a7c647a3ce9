package dev.lipa.auth.tokens;

import dev.lipa.common.ratelimit.ClientAddresses;
import dev.lipa.common.ratelimit.RateLimitExceededException;
import dev.lipa.common.web.ValidationException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /api/v1/get-token} (spec endpoint 1) and {@code POST /api/v1/refresh-token} (our addition).
 *
 * <p>Both answer in the token envelope, errors included, so this controller handles its own failures: its
 * {@code @ExceptionHandler}s take precedence over the service-wide integer-status advice. The mappings declare no
 * {@code consumes} on purpose: a content-type mismatch then surfaces while reading the body, inside this controller,
 * where the handlers below see it (a mismatch found during handler lookup would reach only the common advice).
 *
 * <p>Failed requests are throttled per client address and API key ({@link TokenThrottle}): the body is read first (a
 * malformed body is a 400 and no failure), then the throttle answers 429 or lets the credentials be checked.
 */
@RestController
class TokenController {

  private static final Logger log = LoggerFactory.getLogger(TokenController.class);

  private final TokenService tokens;
  private final TokenThrottle throttle;
  private final ClientAddresses addresses;

  TokenController(TokenService tokens, TokenThrottle throttle, ClientAddresses addresses) {
    this.tokens = tokens;
    this.throttle = throttle;
    this.addresses = addresses;
  }

  @PostMapping("/api/v1/get-token")
  ResponseEntity<TokenEnvelope<TokenResponse>> getToken(@RequestBody JsonNode body, HttpServletRequest http) {
    GetTokenRequest request = GetTokenRequest.from(body);
    TokenThrottle.Attempt attempt = throttle.getToken(request.apiKey(), clientAddress(http));
    return answer(throttled(attempt, () -> tokens.issue(request.apiKey(), request.apiSecret())));
  }

  @PostMapping("/api/v1/refresh-token")
  ResponseEntity<TokenEnvelope<TokenResponse>> refreshToken(@RequestBody JsonNode body, HttpServletRequest http) {
    RefreshTokenRequest request = RefreshTokenRequest.from(body);
    TokenThrottle.Attempt attempt = throttle.refresh(clientAddress(http));
    return answer(throttled(attempt, () -> tokens.refresh(request.refreshToken())));
  }

  /** Runs the credential check: a refusal spends the attempt's tokens, anything else gives them back. */
  private static TokenPair throttled(TokenThrottle.Attempt attempt, Supplier<TokenPair> check) {
    TokenPair pair;
    try {
      pair = check.get();
    } catch (TokenRefusedException e) {
      attempt.failed();
      throw e;
    } catch (RuntimeException e) {
      attempt.release();
      throw e;
    }
    attempt.release();
    return pair;
  }

  private String clientAddress(HttpServletRequest http) {
    return addresses.resolve(http.getRemoteAddr(),
        Collections.list(http.getHeaders(ClientAddresses.X_FORWARDED_FOR)));
  }

  private static ResponseEntity<TokenEnvelope<TokenResponse>> answer(TokenPair pair) {
    // tokens are credentials: no cache (browser, proxy) may keep them (RFC 6749, section 5.1)
    return ResponseEntity.ok()
        .cacheControl(CacheControl.noStore())
        .header(HttpHeaders.PRAGMA, "no-cache")
        .body(TokenEnvelope.ok(TokenResponse.of(pair)));
  }

  @ExceptionHandler(TokenRefusedException.class)
  ResponseEntity<TokenEnvelope<Void>> refused(TokenRefusedException e) {
    log.info("token request refused: {}", e.reason());
    return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
        .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
        .cacheControl(CacheControl.noStore())
        .body(TokenEnvelope.error(HttpStatus.UNAUTHORIZED, e.getMessage()));
  }

  @ExceptionHandler(RateLimitExceededException.class)
  ResponseEntity<TokenEnvelope<Void>> tooMany(RateLimitExceededException e) {
    return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
        .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()))
        .cacheControl(CacheControl.noStore())
        .body(TokenEnvelope.error(HttpStatus.TOO_MANY_REQUESTS, e.getMessage()));
  }

  @ExceptionHandler(ValidationException.class)
  ResponseEntity<TokenEnvelope<Void>> invalid(ValidationException e) {
    return ResponseEntity.badRequest().body(TokenEnvelope.invalid("Validation failed", e.errors()));
  }

  @ExceptionHandler(HttpMessageNotReadableException.class)
  ResponseEntity<TokenEnvelope<Void>> unreadable(HttpMessageNotReadableException e) {
    return ResponseEntity.badRequest().body(TokenEnvelope.invalid("The request body is missing or is not valid JSON",
        Map.of("body", List.of("body must be a JSON object"))));
  }

  @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
  ResponseEntity<TokenEnvelope<Void>> mediaType(HttpMediaTypeNotSupportedException e) {
    return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
        .body(TokenEnvelope.error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/json"));
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<TokenEnvelope<Void>> unexpected(Exception e) {
    log.error("unexpected failure of a token request", e);
    return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(TokenEnvelope.error(
        HttpStatus.INTERNAL_SERVER_ERROR, "Internal error; quote the X-Correlation-Id header to support"));
  }
}
