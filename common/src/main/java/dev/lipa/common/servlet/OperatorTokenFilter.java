package dev.lipa.common.servlet;

import dev.lipa.common.paths.PathRules;
import dev.lipa.common.security.OperatorTokens;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Guards {@code /admin/**}, the platform team's API, in every servlet service (registered by common's
 * auto-configuration, whether or not the service serves an operator endpoint): only an operator token in
 * {@code X-Operator-Token} opens it (the shared one or a named one, see {@link OperatorTokens}; compared in constant
 * time), merchant tokens are never looked at, and without a configured token ({@code LIPA_OPERATOR_TOKEN}) it answers
 * 503: closed, never open. The decision is made on the
 * routed path ({@link RequestPaths#routed}), never on the raw URI, so no spelling of {@code /admin} gets past.
 *
 * <p>With an operator listener ({@code lipa.operator.port}), {@code /admin/**} is served on that listener only (404 on
 * the service's main port) and that listener serves nothing else, so the operator API can stay off the network the
 * rest of the service is reachable from.
 */
public class OperatorTokenFilter extends OncePerRequestFilter {

  public static final String HEADER = "X-Operator-Token";
  public static final String PREFIX = "/admin";
  public static final String NOT_CONFIGURED = "operator API is not configured";
  public static final String REFUSED = "a valid X-Operator-Token header is required";
  private static final Logger log = LoggerFactory.getLogger(OperatorTokenFilter.class);
  private static final IntSupplier NO_OPERATOR_LISTENER = () -> -1;

  private final OperatorTokens tokens;
  private final JsonMapper json;
  private final IntSupplier operatorPort;

  /** {@code operatorToken} null or blank: the admin API is not configured. */
  public OperatorTokenFilter(String operatorToken, JsonMapper json) {
    this(operatorToken, json, NO_OPERATOR_LISTENER);
  }

  /** {@code operatorPort}: the operator listener's port once it is bound, or a negative number for none. */
  public OperatorTokenFilter(String operatorToken, JsonMapper json, IntSupplier operatorPort) {
    this(OperatorTokens.single(operatorToken), json, operatorPort);
  }

  /** {@code operatorPort}: the operator listener's port once it is bound, or a negative number for none. */
  public OperatorTokenFilter(OperatorTokens tokens, JsonMapper json, IntSupplier operatorPort) {
    this.tokens = tokens;
    this.json = json;
    this.operatorPort = operatorPort;
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    boolean admin = PathRules.isUnder(RequestPaths.routed(request), PREFIX);
    int listener = operatorPort.getAsInt();
    if (listener >= 0 && (request.getLocalPort() == listener) != admin) {
      // the operator API only on the operator listener, and nothing else there
      EnvelopeWriter.write(response, json, HttpStatus.NOT_FOUND, "Not found");
      return;
    }
    if (!admin) {
      chain.doFilter(request, response);
      return;
    }
    if (!tokens.configured()) {
      EnvelopeWriter.write(response, json, HttpStatus.SERVICE_UNAVAILABLE, NOT_CONFIGURED);
      return;
    }
    String presented = request.getHeader(HEADER);
    if (tokens.identify(presented).isEmpty()) {
      log.warn("refused operator request {} {}: {} operator token", request.getMethod(), RequestPaths.routed(request),
          presented == null ? "no" : "wrong");
      EnvelopeWriter.write(response, json, HttpStatus.UNAUTHORIZED, REFUSED);
      return;
    }
    chain.doFilter(request, response);
  }
}
