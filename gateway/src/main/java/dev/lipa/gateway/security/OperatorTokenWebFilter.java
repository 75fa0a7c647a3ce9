package dev.lipa.gateway.security;

import dev.lipa.common.paths.PathRules;
import dev.lipa.common.ratelimit.ClientAddresses;
import dev.lipa.common.security.OperatorTokens;
import dev.lipa.common.servlet.OperatorTokenFilter;
import dev.lipa.gateway.GatewayProperties;
import dev.lipa.gateway.rules.PathRulesWebFilter;
import dev.lipa.gateway.web.Envelopes;
import dev.lipa.gateway.web.RequestLog;
import java.net.InetSocketAddress;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The gateway's own check of the operator token on {@code /admin/**}, before routing (the services behind it check
 * again and keep the audit log): {@code X-Operator-Token} must be one of the operator tokens ({@code
 * LIPA_OPERATOR_TOKEN} or a named {@code LIPA_OPERATOR_TOKENS_<NAME>}, see {@link OperatorTokens}), compared in
 * constant time; without a configured token the operator API answers 503. A refusal never reaches a service (nor its
 * audit log), so it is logged here with the client's address (behind the trusted proxies) and the path. With
 * {@code lipa.gateway.operator-api-enabled=false} the public gateway does not serve the operator API at all (404):
 * operators then reach the services' operator listeners on a network of their own.
 */
@Component
public class OperatorTokenWebFilter implements WebFilter, Ordered {

  private static final Logger log = LoggerFactory.getLogger(OperatorTokenWebFilter.class);

  private final OperatorTokens tokens;
  private final boolean enabled;
  private final Envelopes envelopes;
  private final ClientAddresses addresses;

  public OperatorTokenWebFilter(OperatorTokens tokens, GatewayProperties properties, Envelopes envelopes,
      ClientAddresses addresses) {
    this.tokens = tokens;
    this.enabled = properties.operatorApiEnabled();
    this.envelopes = envelopes;
    this.addresses = addresses;
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
    if (!tokens.configured()) {
      return envelopes.message(exchange, HttpStatus.SERVICE_UNAVAILABLE, OperatorTokenFilter.NOT_CONFIGURED);
    }
    String presented = exchange.getRequest().getHeaders().getFirst(OperatorTokenFilter.HEADER);
    if (tokens.identify(presented).isEmpty()) {
      RequestLog.log(exchange, log, l -> l.warn("refused operator request {} {} from {}: {} operator token",
          exchange.getRequest().getMethod(), path, client(exchange), presented == null ? "no" : "wrong"));
      return envelopes.message(exchange, HttpStatus.UNAUTHORIZED, OperatorTokenFilter.REFUSED);
    }
    return chain.filter(exchange);
  }

  private String client(ServerWebExchange exchange) {
    InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
    String peer = remote == null || remote.getAddress() == null ? null : remote.getAddress().getHostAddress();
    List<String> forwarded = exchange.getRequest().getHeaders().getOrEmpty(ClientAddresses.X_FORWARDED_FOR);
    return addresses.client(peer, forwarded);
  }
}
