package dev.lipa.gateway.security;

import dev.lipa.common.paths.PathRules;
import dev.lipa.common.security.SecretHeader;
import dev.lipa.common.servlet.OperatorTokenFilter;
import dev.lipa.gateway.GatewayProperties;
import dev.lipa.gateway.rules.PathRulesWebFilter;
import dev.lipa.gateway.web.Envelopes;
import dev.lipa.gateway.web.RequestLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The gateway's own check of the operator token on {@code /admin/**}, before routing (the services behind it check
 * again): {@code X-Operator-Token} must match {@code LIPA_OPERATOR_TOKEN}, compared in constant time; without a
 * configured token the operator API answers 503. With {@code lipa.gateway.operator-api-enabled=false} the public
 * gateway does not serve the operator API at all (404): operators then reach the services' operator listeners on a
 * network of their own.
 */
@Component
public class OperatorTokenWebFilter implements WebFilter, Ordered {

  private static final Logger log = LoggerFactory.getLogger(OperatorTokenWebFilter.class);

  private final SecretHeader token;
  private final boolean enabled;
  private final Envelopes envelopes;

  public OperatorTokenWebFilter(@Value("${lipa.operator.token:}") String operatorToken, GatewayProperties properties,
      Envelopes envelopes) {
    this.token = new SecretHeader(operatorToken);
    this.enabled = properties.operatorApiEnabled();
    this.envelopes = envelopes;
  }

  @Override
  public int getOrder() {
    return PathRulesWebFilter.ORDER + 1;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    // the path rules ran first, so the raw path is the routed one; reading it through PathRules.routed keeps this
    // decision right even if they were ever switched off
    String path = PathRules.routed(exchange.getRequest().getPath().value());
    if (!PathRules.isUnder(path, OperatorTokenFilter.PREFIX)) {
      return chain.filter(exchange);
    }
    if (!enabled) {
      return envelopes.notFound(exchange);
    }
    if (!token.configured()) {
      return envelopes.message(exchange, HttpStatus.SERVICE_UNAVAILABLE, OperatorTokenFilter.NOT_CONFIGURED);
    }
    String presented = exchange.getRequest().getHeaders().getFirst(OperatorTokenFilter.HEADER);
    if (!token.matches(presented)) {
      RequestLog.log(exchange, log, l -> l.warn("refused operator request {} {}: {} operator token",
          exchange.getRequest().getMethod(), path, presented == null ? "no" : "wrong"));
      return envelopes.message(exchange, HttpStatus.UNAUTHORIZED, OperatorTokenFilter.REFUSED);
    }
    return chain.filter(exchange);
  }
}
