package dev.lipa.common.servlet;

import dev.lipa.common.web.Envelope;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Guards {@code /admin/**}, the platform team's API, in every service that has one: only the operator token in
 * {@code X-Operator-Token} opens it (compared in constant time), merchant tokens are never looked at, and without a
 * configured token (env {@code LIPA_OPERATOR_TOKEN}) it answers 503: closed, never open.
 */
public class OperatorTokenFilter extends OncePerRequestFilter {

  public static final String HEADER = "X-Operator-Token";
  public static final String NOT_CONFIGURED = "operator API is not configured";
  public static final String REFUSED = "a valid X-Operator-Token header is required";
  private static final Logger log = LoggerFactory.getLogger(OperatorTokenFilter.class);

  private final byte[] expectedHash;
  private final JsonMapper json;

  /** {@code operatorToken} null or blank: the admin API is not configured. */
  public OperatorTokenFilter(String operatorToken, JsonMapper json) {
    this.expectedHash = operatorToken == null || operatorToken.isBlank() ? null : sha256(operatorToken);
    this.json = json;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    return !(path.equals("/admin") || path.startsWith("/admin/"));
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (expectedHash == null) {
      write(response, HttpStatus.SERVICE_UNAVAILABLE, NOT_CONFIGURED);
      return;
    }
    String presented = request.getHeader(HEADER);
    // hashing both sides first makes the comparison independent of the lengths too
    if (presented == null || !MessageDigest.isEqual(sha256(presented), expectedHash)) {
      log.warn("refused operator request {} {}: {} operator token", request.getMethod(), request.getRequestURI(),
          presented == null ? "no" : "wrong");
      write(response, HttpStatus.UNAUTHORIZED, REFUSED);
      return;
    }
    chain.doFilter(request, response);
  }

  private void write(HttpServletResponse response, HttpStatus status, String message) throws IOException {
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    json.writeValue(response.getOutputStream(), Envelope.error(status, message));
  }

  private static byte[] sha256(String value) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
