package dev.lipa.gateway.metrics;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.stereotype.Component;

/**
 * The gateway's request timer ({@code http.server.requests}) by route: Spring's tags (method, status, outcome, and a
 * {@code uri} that is a handler's path template or {@code UNKNOWN}/{@code NOT_FOUND}, never the raw path) plus
 * {@code route}, the id of the route in application.yml that took the request ({@code none} when no route did: a 404,
 * a refused path spelling, the contract documents). A proxied request has no handler template at the gateway, so the
 * route is its template here; the services' own timers have the endpoint's.
 */
@Component
public class RouteTimers extends DefaultServerRequestObservationConvention {

  static final String ROUTE = "route";
  static final String NONE = "none";

  @Override
  public KeyValues getLowCardinalityKeyValues(ServerRequestObservationContext context) {
    return super.getLowCardinalityKeyValues(context).and(KeyValue.of(ROUTE, routeId(context)));
  }

  private static String routeId(ServerRequestObservationContext context) {
    Object route = context.getAttributes().get(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
    return route instanceof Route matched ? matched.getId() : NONE;
  }

  /** The route id of an exchange's route, as the timers tag it (for the gateway's other meters). */
  public static String routeTag(Route route) {
    return route == null ? NONE : route.getId();
  }
}
