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
  /** The environment whose stack the route goes to ({@code sandbox} or {@code live}); none on shared routes. */
  public static final String ENVIRONMENT = "environment";
  /** False on a route of an environment this gateway does not serve: it answers 404 and goes nowhere. */
  public static final String SERVED = "served";

  private RoutePolicy() {
  }

  /** The route this exchange was matched to, or null when no route matched (yet). */
  public static Route route(ServerWebExchange exchange) {
    return exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
  }

  public static boolean tokenRequired(Route route) {
    return route != null && tokenRequired(route.getMetadata());
  }

  /** Whether a route with this metadata needs a token. */
  public static boolean tokenRequired(Map<String, Object> metadata) {
    // a route that forgets to say is protected: failing closed is the safe mistake
    return !isFalse(metadata.get(TOKEN_REQUIRED));
  }

  /** Whether the route's environment is served here (every route but those of an environment not served). */
  public static boolean served(Route route) {
    return route == null || !isFalse(route.getMetadata().get(SERVED));
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
