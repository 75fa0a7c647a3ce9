package dev.lipa.gateway.environment;

import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.security.BearerTokenGatewayFilter;
import dev.lipa.gateway.web.Envelopes;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * A path of an environment this gateway does not serve ({@link EnvironmentRoutes}) answers the 404 of an unknown
 * path, before the token check (as an unknown path does) and without reaching anything.
 */
public class UnservedEnvironmentFilter implements GlobalFilter, Ordered {

  private final Envelopes envelopes;

  public UnservedEnvironmentFilter(Envelopes envelopes) {
    this.envelopes = envelopes;
  }

  @Override
  public int getOrder() {
    return BearerTokenGatewayFilter.ORDER - 50;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    return RoutePolicy.served(RoutePolicy.route(exchange)) ? chain.filter(exchange) : envelopes.notFound(exchange);
  }
}
