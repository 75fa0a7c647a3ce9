package dev.lipa.common.servlet;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.KeysUnavailableException;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.security.VerifiedToken;
import dev.lipa.common.tracing.LogContext;
import dev.lipa.common.web.Envelope;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.util.AntPathMatcher;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Verifies the bearer token of every protected request in the service itself (defence in depth: a header from the
 * network is never identity) and leaves the verified token for {@link Caller}. A verified token of the other
 * environment (a sandbox key's on a live service, or the reverse) is refused with 403 and the key environment's
 * {@link Environment#wrongPathMessage()} on every path, before anything is read or written: the gateway decides this
 * first, and a call that reaches the service another way gets the same answer. Refusals are the platform's envelope;
 * a service whose API has another error body overrides {@link #refusal}.
 */
public class BearerTokenFilter extends OncePerRequestFilter {

  private static final Logger log = LoggerFactory.getLogger(BearerTokenFilter.class);
  private static final AntPathMatcher PATHS = new AntPathMatcher();

  private final TokenVerifier verifier;
  private final List<String> protectedPaths;
  private final List<String> publicPaths;
  private final JsonMapper json;
  private final Environment served;

  /** @param served the environment this service serves: tokens of the other one are refused */
  public BearerTokenFilter(TokenVerifier verifier, List<String> protectedPaths, List<String> publicPaths,
      JsonMapper json, Environment served) {
    this.verifier = verifier;
    this.served = served;
    this.protectedPaths = protectedPaths;
    this.publicPaths = publicPaths;
    this.json = json;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    String path = RequestPaths.routed(request);
    return protectedPaths.stream().noneMatch(p -> PATHS.match(p, path))
        || publicPaths.stream().anyMatch(p -> PATHS.match(p, path));
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String header = request.getHeader(HttpHeaders.AUTHORIZATION);
    VerifiedToken token;
    try {
      if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
        throw new InvalidTokenException("no bearer token");
      }
      token = verifier.verifyAccess(header.substring(7).strip());
      Caller.attach(request, token);
    } catch (InvalidTokenException e) {
      log.info("refused token on {} {}: {}", request.getMethod(), RequestPaths.routed(request), e.getMessage());
      write(response, HttpStatus.UNAUTHORIZED, InvalidTokenException.PUBLIC_MESSAGE);
      return;
    } catch (KeysUnavailableException e) {
      log.warn("cannot verify tokens: {}", e.getMessage());
      write(response, HttpStatus.SERVICE_UNAVAILABLE, "authentication is temporarily unavailable");
      return;
    }
    if (token.environment() != served) {
      log.info("refused a {} token of organisation {} on {} {}: this service serves the {} environment",
          token.environment().claim(), token.organisationId(), request.getMethod(), RequestPaths.routed(request),
          served.claim());
      write(response, HttpStatus.FORBIDDEN, token.environment().wrongPathMessage());
      return;
    }
    // every line the request logs names its organisation (never the token)
    try (LogContext context = LogContext.organisation(token.organisationId())) {
      chain.doFilter(request, response);
    }
  }

  private void write(HttpServletResponse response, HttpStatus status, String message) throws IOException {
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    if (status == HttpStatus.UNAUTHORIZED) {
      response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
    }
    json.writeValue(response.getOutputStream(), refusal(status, message));
  }

  /** The body of a refusal (401, 403 or 503) with this message. */
  protected Object refusal(HttpStatus status, String message) {
    return Envelope.error(status, message);
  }
}
