package dev.lipa.gateway.routing;

import java.util.Map;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.web.server.ServerWebExchange;

/** What a route's metadata (application.yml) asks of the gateway's own filters. */
public final class RoutePolicy {

  /** Upstream service name: the circuit breaker's name and the subject of the 503 message. */
  public static final String SERVICE = "service";
  /** The bearer access token is verified before the request is proxied. */
  public static final String TOKEN_REQUIRED = "token-required";
  /** A body on POST/PUT/PATCH must be application/json. */
  public static final String JSON_BODIES = "json-bodies";
  /** How the gateway's own error answers look on the route: {@code envelope} (default) or {@code checkout}. */
  public static final String ERROR_SHAPE = "error-shape";
  public static final String CHECKOUT_SHAPE = "checkout";

  private RoutePolicy() {
  }

  /** The route this exchange was matched to, or null when no route matched (yet). */
  public static Route route(ServerWebExchange exchange) {
    return exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
  }

  public static boolean tokenRequired(Route route) {
    // a route that forgets to say is protected: failing closed is the safe mistake
    return route != null && !isFalse(route.getMetadata().get(TOKEN_REQUIRED));
  }

  public static boolean jsonBodies(Route route) {
    return route != null && !isFalse(route.getMetadata().get(JSON_BODIES));
  }

  /** Whether the route's errors use the spec's checkout body ({@code message} + {@code errors}), not the envelope. */
  public static boolean checkoutErrors(Route route) {
    return route != null && CHECKOUT_SHAPE.equals(String.valueOf(route.getMetadata().get(ERROR_SHAPE)));
  }

  /** The upstream's name, or the route id when the route names no service. */
  public static String service(Route route) {
    Map<String, Object> metadata = route.getMetadata();
    Object service = metadata.get(SERVICE);
    return service == null ? route.getId() : service.toString();
  }

  private static boolean isFalse(Object value) {
    return Boolean.FALSE.equals(value) || "false".equals(value);
  }
}
