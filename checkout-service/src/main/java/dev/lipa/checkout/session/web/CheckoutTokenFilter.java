package dev.lipa.checkout.config;

import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.KeysUnavailableException;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.paths.PathRules;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.servlet.RequestPaths;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service's own check of the merchant's bearer token on the checkout-session API (defence in depth), answering in
 * the spec's checkout error body ({@code {"message":"invalid authentication token","errors":{}}}) where common's
 * filter would answer with the envelope. Common's filter skips these paths ({@code lipa.security.public-paths}).
 */
class CheckoutTokenFilter extends OncePerRequestFilter {

  static final String PATH_PREFIX = "/api/sandbox/v1/checkout-sessions";
  private static final Logger log = LoggerFactory.getLogger(CheckoutTokenFilter.class);

  private final TokenVerifier verifier;
  private final JsonMapper json;

  CheckoutTokenFilter(TokenVerifier verifier, JsonMapper json) {
    this.verifier = verifier;
    this.json = json;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !PathRules.isUnder(RequestPaths.routed(request), PATH_PREFIX);
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String header = request.getHeader(HttpHeaders.AUTHORIZATION);
    try {
      if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
        throw new InvalidTokenException("no bearer token");
      }
      Caller.attach(request, verifier.verifyAccess(header.substring(7).strip()));
    } catch (InvalidTokenException e) {
      log.info("refused token on {} {}: {}", request.getMethod(), RequestPaths.routed(request), e.getMessage());
      response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
      write(response, HttpStatus.UNAUTHORIZED, InvalidTokenException.PUBLIC_MESSAGE);
      return;
    } catch (KeysUnavailableException e) {
      log.warn("cannot verify tokens: {}", e.getMessage());
      write(response, HttpStatus.SERVICE_UNAVAILABLE, "authentication is temporarily unavailable");
      return;
    }
    chain.doFilter(request, response);
  }

  private void write(HttpServletResponse response, HttpStatus status, String message) throws IOException {
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("message", message);
    body.put("errors", Map.of());
    json.writeValue(response.getOutputStream(), body);
  }
}
