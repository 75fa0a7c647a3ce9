package dev.lipa.gateway.environment;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.paths.PathRules;
import dev.lipa.common.security.VerifiedToken;
import dev.lipa.gateway.metrics.RouteTimers;
import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.security.BearerTokenGatewayFilter;
import dev.lipa.gateway.web.Envelopes;
import dev.lipa.gateway.web.RequestLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * A key works in its own environment only: a verified token whose environment is not the path's (a sandbox token on
 * {@code /api/v1/stk/new}, a live one on {@code /api/sandbox/v1/stk/new}) gets 403 with
 * {@link Environment#wrongPathMessage()} of the token's environment, in the route's error shape. Decided right after the
 * token check, so the refusal spends nothing of the organisation's request limit and reaches no service (each service
 * checks again). The path is the routed one (decoded and normalised; odd spellings were refused before routing).
 */
public class WrongEnvironmentFilter implements GlobalFilter, Ordered {

  /** After the token check, before the organisation's request limit counts the request. */
  public static final int ORDER = BearerTokenGatewayFilter.ORDER + 25;
  /** Requests refused with 403 for a token of the other environment, by route and the token's environment. */
  public static final String REFUSALS = "lipa.gateway.environment.refusals";
  private static final Logger log = LoggerFactory.getLogger(WrongEnvironmentFilter.class);

  private final Envelopes envelopes;
  private final MeterRegistry meters;

  public WrongEnvironmentFilter(Envelopes envelopes, MeterRegistry meters) {
    this.envelopes = envelopes;
    this.meters = meters;
  }

  @Override
  public int getOrder() {
    return ORDER;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    VerifiedToken caller = exchange.getAttribute(BearerTokenGatewayFilter.VERIFIED_TOKEN);
    if (caller == null) {
      return chain.filter(exchange); // a route without a token
    }
    Environment path = Environment.ofPath(PathRules.routed(exchange.getRequest().getPath().value()));
    if (path == null || path == caller.environment()) {
      return chain.filter(exchange);
    }
    String route = RouteTimers.routeTag(RoutePolicy.route(exchange));
    Counter.builder(REFUSALS).description("Requests refused with 403: a token of the other environment")
        .tag("route", route).tag("environment", caller.environment().claim()).register(meters).increment();
    RequestLog.log(exchange, log, l -> l.info("refused a {} token of {} on {} {}", caller.environment().claim(),
        caller.organisationId(), exchange.getRequest().getMethod(), exchange.getRequest().getPath()));
    return envelopes.message(exchange, HttpStatus.FORBIDDEN, caller.environment().wrongPathMessage());
  }
}
