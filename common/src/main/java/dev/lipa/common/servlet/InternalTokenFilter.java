package dev.lipa.common.servlet;

import dev.lipa.common.paths.PathRules;
import dev.lipa.common.security.SecretHeader;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Guards {@code /internal/**}, the calls platform services make to each other (never routed by the gateway), in every
 * servlet service: only the shared internal token in {@code X-Internal-Token} ({@code LIPA_INTERNAL_TOKEN}) opens it;
 * without a configured token it answers 503. Decided on the routed path, like every access rule.
 */
public class InternalTokenFilter extends OncePerRequestFilter {

  public static final String HEADER = "X-Internal-Token";
  public static final String PREFIX = "/internal";
  public static final String NOT_CONFIGURED = "internal calls are not configured";
  public static final String REFUSED = "invalid internal token";
  private static final Logger log = LoggerFactory.getLogger(InternalTokenFilter.class);

  private final SecretHeader token;
  private final JsonMapper json;

  public InternalTokenFilter(String internalToken, JsonMapper json) {
    this.token = new SecretHeader(internalToken);
    this.json = json;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !PathRules.isUnder(RequestPaths.routed(request), PREFIX);
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (!token.configured()) {
      EnvelopeWriter.write(response, json, HttpStatus.SERVICE_UNAVAILABLE, NOT_CONFIGURED);
      return;
    }
    if (!token.matches(request.getHeader(HEADER))) {
      log.warn("refused internal request {} {}: {} internal token", request.getMethod(), RequestPaths.routed(request),
          request.getHeader(HEADER) == null ? "no" : "wrong");
      EnvelopeWriter.write(response, json, HttpStatus.UNAUTHORIZED, REFUSED);
      return;
    }
    chain.doFilter(request, response);
  }
}
