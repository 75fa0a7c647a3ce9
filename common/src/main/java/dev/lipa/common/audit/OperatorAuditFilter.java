package dev.lipa.common.audit;

import dev.lipa.common.paths.PathRules;
import dev.lipa.common.ratelimit.ClientAddresses;
import dev.lipa.common.security.OperatorTokens;
import dev.lipa.common.servlet.CorrelationIdFilter;
import dev.lipa.common.servlet.OperatorTokenFilter;
import dev.lipa.common.servlet.RequestPaths;
import dev.lipa.common.web.Envelope;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records every call of the operator API ({@code /admin/**}, on the routed path, whatever its spelling) in the audit
 * log before anything else decides on it: refused calls too, as {@value OperatorTokens#UNAUTHENTICATED}, and odd path
 * spellings the path rules refuse. The record is written before the call runs and completed with the status after it,
 * so a call cut short by a crash still left its record; when the record cannot be written the call does not run
 * (503): an operator call nobody could audit is not made.
 */
public class OperatorAuditFilter extends OncePerRequestFilter {

  static final int MAX_QUERY = 1000;
  static final String UNAVAILABLE = "the audit log is unavailable; nothing was done, try again later";
  private static final Logger log = LoggerFactory.getLogger(OperatorAuditFilter.class);

  private final OperatorAuditStore store;
  private final OperatorTokens tokens;
  private final ClientAddresses addresses;
  private final Clock clock;
  private final String service;
  private final JsonMapper json;

  public OperatorAuditFilter(OperatorAuditStore store, OperatorTokens tokens, ClientAddresses addresses, Clock clock,
      String service, JsonMapper json) {
    this.store = store;
    this.tokens = tokens;
    this.addresses = addresses;
    this.clock = clock;
    this.service = service;
    this.json = json;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !PathRules.isUnder(RequestPaths.routed(request), OperatorTokenFilter.PREFIX);
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String id = UUID.randomUUID().toString();
    String peer = request.getRemoteAddr();
    AuditRecord record = new AuditRecord(id, clock.instant(),
        tokens.identify(request.getHeader(OperatorTokenFilter.HEADER)).orElse(OperatorTokens.UNAUTHENTICATED),
        request.getMethod(), RequestPaths.routed(request), query(request), Map.of(), null, null,
        addresses.client(peer, Collections.list(request.getHeaders(ClientAddresses.X_FORWARDED_FOR))), peer,
        MDC.get(CorrelationIdFilter.MDC_KEY), service);
    try {
      store.begin(record);
    } catch (RuntimeException e) {
      log.error("cannot write the audit record of operator call {} {} by {}; the call is refused", record.method(),
          record.path(), record.operator(), e);
      response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
      response.setContentType(MediaType.APPLICATION_JSON_VALUE);
      json.writeValue(response.getOutputStream(), Envelope.error(HttpStatus.SERVICE_UNAVAILABLE, UNAVAILABLE));
      return;
    }
    int status = HttpStatus.INTERNAL_SERVER_ERROR.value(); // what the container answers when the chain throws
    try {
      chain.doFilter(request, response);
      status = response.getStatus();
    } finally {
      try {
        store.complete(id, status, pathIds(request), clock.instant());
      } catch (RuntimeException e) {
        log.error("cannot complete the audit record {} of operator call {} {} by {} (status {}); it stays "
            + "unfinished", id, record.method(), record.path(), record.operator(), status, e);
      }
    }
  }

  private static String query(HttpServletRequest request) {
    String query = request.getQueryString();
    return query == null || query.length() <= MAX_QUERY ? query : query.substring(0, MAX_QUERY) + "…";
  }

  /** The ids the handler read from the path ({@code organisationId}, {@code apiKey}...); none when none ran. */
  @SuppressWarnings("unchecked")
  private static Map<String, String> pathIds(HttpServletRequest request) {
    Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
    return variables instanceof Map<?, ?> map ? (Map<String, String>) map : Map.of();
  }
}
