package dev.lipa.gateway.routing;

import java.net.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.RouteToRequestUrlFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Sends a request of a balanced route ({@code lb://}) to another replica when, and only when, no connection to the
 * first could be made (refused, or not made in the connect timeout): the request was never sent, so trying again
 * cannot execute it twice, whatever its method. Anything that went wrong after the connection was made (a reset, a
 * timeout while waiting for the answer) is not retried, since the service may have acted on it.
 *
 * <p>It runs before the route's URL is computed, so that a retry goes through the load balancer again (and its round
 * robin gives the next replica), and after the route's circuit breaker, which so counts one call, not one per
 * attempt. Routes to a single instance are left alone.
 */
public class ConnectRefusedRetryFilter implements GlobalFilter, Ordered {

  /** Just before the route's lb:// URL is turned into the request URL, which the load balancer then resolves. */
  public static final int ORDER = RouteToRequestUrlFilter.ROUTE_TO_URL_FILTER_ORDER - 1;
  private static final Logger log = LoggerFactory.getLogger(ConnectRefusedRetryFilter.class);

  private final int attempts;

  /** {@code attempts}: how many replicas one request may try (the number of replicas is the useful most). */
  public ConnectRefusedRetryFilter(int attempts) {
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be at least 1, was " + attempts);
    }
    this.attempts = attempts;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    Route route = RoutePolicy.route(exchange);
    if (route == null || !"lb".equals(route.getUri().getScheme())) {
      return chain.filter(exchange);
    }
    return attempt(exchange, chain, 1);
  }

  private Mono<Void> attempt(ServerWebExchange exchange, GatewayFilterChain chain, int attempt) {
    return chain.filter(exchange).onErrorResume(
        error -> attempt < attempts && neverConnected(error) && !exchange.getResponse().isCommitted(),
        error -> {
          log.debug("no connection to a replica of {} ({}); attempt {} of {} on the next replica",
              RoutePolicy.service(RoutePolicy.route(exchange)), error.toString(), attempt + 1, attempts);
          // forget the first attempt's routing (the resolved replica URL is computed afresh from the lb:// route)
          ServerWebExchangeUtils.reset(exchange);
          return attempt(exchange, chain, attempt + 1);
        });
  }

  /** Whether the error, or one of its causes, says the connection was never made (Netty's connect timeout too). */
  static boolean neverConnected(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  @Override
  public int getOrder() {
    return ORDER;
  }
}
