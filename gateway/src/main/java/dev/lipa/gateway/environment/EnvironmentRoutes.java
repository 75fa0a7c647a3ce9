package dev.lipa.gateway.environment;

import dev.lipa.common.environment.Environment;
import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.routing.UpstreamInstances;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.config.PropertiesRouteDefinitionLocator;
import org.springframework.cloud.gateway.filter.FilterDefinition;
import org.springframework.cloud.gateway.handler.predicate.PredicateDefinition;
import org.springframework.cloud.gateway.route.RouteDefinition;
import reactor.core.publisher.Flux;

/**
 * The gateway's routes for each environment's stack, derived from the routes of application.yml (it takes the place
 * of Spring Cloud Gateway's own reader of them). A route whose metadata says {@code environments: sandbox,live} is the
 * sandbox route of an operational service, and gets its live twin right after it:
 * <ul>
 *   <li>the same paths without {@code /sandbox} ({@code /api/sandbox/v1/stk/**} is {@code /api/v1/stk/**}), the
 *       operator API under {@code /admin/live/...} and the hosted pages under {@code /live/checkout/...} (both sent
 *       to the live service without {@code /live}), paths without an environment unchanged;</li>
 *   <li>to {@code lipa.gateway.live-upstreams.<service>.uri}, through a circuit breaker of its own
 *       ({@code <name>-live}), with the sandbox route's timeouts unless the live upstream sets its own.</li>
 * </ul>
 * A route that needs a token is also bound to its environment ({@link RequestEnvironmentRoutePredicateFactory}), so
 * that a path without one ({@code /api/v1/tz/...}, {@code /api/v1/callbacks/...}) goes to the stack of the token's
 * environment. A route of an environment this gateway does not serve stays as a route that answers 404
 * ({@link RoutePolicy#SERVED}): it must still match, or the auth route's {@code /admin/**} would take its operator
 * paths. {@code environments: sandbox} marks a route of the sandbox stack with no live twin (banks' notifications);
 * a route without the key (auth-service's) is the same in every environment.
 */
public class EnvironmentRoutes extends PropertiesRouteDefinitionLocator {

  /** The metadata key naming the environments a route of application.yml exists in. */
  public static final String ENVIRONMENTS = "environments";
  private static final URI NOWHERE = URI.create("no://op");

  private final List<RouteDefinition> routes;

  public EnvironmentRoutes(GatewayProperties declared, ServedEnvironments served, UpstreamInstances upstreams) {
    super(declared);
    List<RouteDefinition> all = new ArrayList<>();
    for (RouteDefinition route : declared.getRoutes()) {
      Object environments = route.getMetadata().get(ENVIRONMENTS);
      if (environments == null) {
        all.add(route);
        continue;
      }
      List<String> names = Arrays.stream(environments.toString().split(",")).map(String::strip).toList();
      if (names.equals(List.of(Environment.LIVE.claim()))) {
        // a route of the live stack alone (Daraja's callbacks, the Daraja rails' operator API), written in the
        // sandbox's spelling as every other route, so that its operator paths become /admin/live/... the same way
        String id = route.getId() + UpstreamInstances.LIVE_SUFFIX;
        all.add(served.serves(Environment.LIVE) ? live(route, id, upstreams) : unserved(route, id, Environment.LIVE));
        continue;
      }
      if (!names.contains(Environment.SANDBOX.claim())) {
        throw new IllegalStateException("route " + route.getId() + ": environments must be live, or include sandbox"
            + " (the route of application.yml being the sandbox's), was " + environments);
      }
      all.add(served.serves(Environment.SANDBOX) ? bound(copy(route), Environment.SANDBOX)
          : unserved(route, route.getId(), Environment.SANDBOX));
      if (names.contains(Environment.LIVE.claim())) {
        String id = route.getId() + UpstreamInstances.LIVE_SUFFIX;
        all.add(served.serves(Environment.LIVE) ? live(route, id, upstreams) : unserved(route, id, Environment.LIVE));
      }
    }
    this.routes = List.copyOf(all);
  }

  @Override
  public Flux<RouteDefinition> getRouteDefinitions() {
    return Flux.fromIterable(routes);
  }

  /** Every route, in matching order (for the meters that want a series per route from the start). */
  public List<RouteDefinition> routes() {
    return routes;
  }

  private static RouteDefinition live(RouteDefinition sandbox, String id, UpstreamInstances upstreams) {
    String service = String.valueOf(sandbox.getMetadata().get(RoutePolicy.SERVICE));
    UpstreamInstances.Upstream upstream = upstreams.liveUpstreams().get(service);
    if (upstream == null) {
      throw new IllegalStateException("lipa.gateway.live-upstreams." + service + ".uri is required: this gateway"
          + " serves the live environment (lipa.gateway.environments)");
    }
    RouteDefinition live = copy(sandbox);
    live.setId(id);
    live.setUri(upstream.uri());
    String base = null;
    for (PredicateDefinition predicate : live.getPredicates()) {
      if ("Path".equals(predicate.getName())) {
        for (Map.Entry<String, String> pattern : predicate.getArgs().entrySet()) {
          String path = pattern.getValue();
          if (path.startsWith("/admin/") || path.startsWith("/checkout/")) {
            base = path.startsWith("/admin/") ? "/admin" : "";
          }
          pattern.setValue(livePath(path));
        }
      }
    }
    if (base != null) {
      // the live service serves the paths the sandbox one does: the gateway takes /live out again
      // (/admin/live/v1/... is the live service's /admin/v1/..., /live/checkout/... its /checkout/...)
      FilterDefinition rewrite = new FilterDefinition();
      rewrite.setName("RewritePath");
      rewrite.addArg("regexp", "^" + base + "/live(?<rest>/.*)?$");
      rewrite.addArg("replacement", base + "${rest}");
      live.getFilters().addFirst(rewrite);
    }
    for (FilterDefinition filter : live.getFilters()) {
      if ("CircuitBreaker".equals(filter.getName()) && filter.getArgs().containsKey("name")) {
        filter.getArgs().put("name", filter.getArgs().get("name") + UpstreamInstances.LIVE_SUFFIX);
      }
    }
    if (upstream.connectTimeoutMillis() != null) {
      live.getMetadata().put("connect-timeout", upstream.connectTimeoutMillis());
    }
    if (upstream.responseTimeoutMillis() != null) {
      live.getMetadata().put("response-timeout", upstream.responseTimeoutMillis());
    }
    return bound(live, Environment.LIVE);
  }

  /** The live spelling of a sandbox route's path pattern. */
  static String livePath(String sandbox) {
    if (sandbox.startsWith("/api/sandbox/")) {
      return "/api/" + sandbox.substring("/api/sandbox/".length());
    }
    if (sandbox.startsWith("/admin/")) {
      return "/admin/live/" + sandbox.substring("/admin/".length());
    }
    if (sandbox.startsWith("/checkout/")) {
      return "/live" + sandbox;
    }
    return sandbox; // a path without an environment: the token's decides (bound below)
  }

  /** A route that needs a token takes only the requests of its environment (see the class comment). */
  private static RouteDefinition bound(RouteDefinition route, Environment environment) {
    route.getMetadata().put(RoutePolicy.ENVIRONMENT, environment.claim());
    if (RoutePolicy.tokenRequired(route.getMetadata())) {
      PredicateDefinition predicate = new PredicateDefinition();
      predicate.setName(RequestEnvironmentRoutePredicateFactory.NAME);
      predicate.addArg(RequestEnvironmentRoutePredicateFactory.ENVIRONMENT, environment.claim());
      route.getPredicates().add(predicate);
    }
    return route;
  }

  /** The paths of a route of an environment not served: matched, so that they answer 404 and go nowhere. */
  private static RouteDefinition unserved(RouteDefinition route, String id, Environment environment) {
    RouteDefinition unserved = new RouteDefinition();
    unserved.setId(id);
    unserved.setUri(NOWHERE);
    unserved.setOrder(route.getOrder());
    for (PredicateDefinition predicate : route.getPredicates()) {
      PredicateDefinition copy = copy(predicate);
      if (environment == Environment.LIVE && "Path".equals(copy.getName())) {
        copy.getArgs().replaceAll((key, path) -> livePath(path));
      }
      unserved.getPredicates().add(copy);
    }
    Map<String, Object> metadata = new LinkedHashMap<>();
    for (String key : List.of(RoutePolicy.SERVICE, RoutePolicy.TOKEN_REQUIRED)) {
      if (route.getMetadata().get(key) != null) {
        metadata.put(key, route.getMetadata().get(key));
      }
    }
    metadata.put(RoutePolicy.SERVED, false);
    unserved.setMetadata(metadata);
    return bound(unserved, environment);
  }

  private static RouteDefinition copy(RouteDefinition route) {
    RouteDefinition copy = new RouteDefinition();
    copy.setId(route.getId());
    copy.setUri(route.getUri());
    copy.setOrder(route.getOrder());
    copy.setEnabled(route.isEnabled());
    copy.setMetadata(new LinkedHashMap<>(route.getMetadata()));
    route.getPredicates().forEach(predicate -> copy.getPredicates().add(copy(predicate)));
    route.getFilters().forEach(filter -> {
      FilterDefinition filterCopy = new FilterDefinition();
      filterCopy.setName(filter.getName());
      filterCopy.setArgs(new LinkedHashMap<>(filter.getArgs()));
      copy.getFilters().add(filterCopy);
    });
    return copy;
  }

  private static PredicateDefinition copy(PredicateDefinition predicate) {
    PredicateDefinition copy = new PredicateDefinition();
    copy.setName(predicate.getName());
    copy.setArgs(new LinkedHashMap<>(predicate.getArgs()));
    return copy;
  }
}
