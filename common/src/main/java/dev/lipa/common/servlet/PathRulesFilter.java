package dev.lipa.common.servlet;

import dev.lipa.common.paths.PathRules;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses odd spellings of a path (see {@link PathRules#oddity}) with 400 before any other filter or handler sees the
 * request, in every service: whatever reaches a service directly, not through the gateway, meets the same rules.
 */
public class PathRulesFilter extends OncePerRequestFilter {

  private static final Logger log = LoggerFactory.getLogger(PathRulesFilter.class);

  private final JsonMapper json;

  public PathRulesFilter(JsonMapper json) {
    this.json = json;
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Optional<String> oddity = PathRules.oddity(RequestPaths.raw(request));
    if (oddity.isPresent()) {
      log.warn("refused request {} with an odd path spelling: {}", request.getMethod(), oddity.get());
      EnvelopeWriter.write(response, json, HttpStatus.BAD_REQUEST, "Malformed request path: " + oddity.get());
      return;
    }
    chain.doFilter(request, response);
  }
}
