package dev.lipa.gateway.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.environment.Environment;
import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.routing.UpstreamInstances;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.FilterDefinition;
import org.springframework.cloud.gateway.handler.predicate.PredicateDefinition;
import org.springframework.cloud.gateway.route.RouteDefinition;

/**
 * The routes of each deployment mode, derived from routes shaped like application.yml's: both environments, the
 * sandbox alone (the default without live upstreams), live alone.
 */
class EnvironmentRoutesTests {

  private static final Map<String, UpstreamInstances.Upstream> LIVE = Map.of(
      "collections-service", upstream("http://10.0.0.1:8083", null),
      "checkout-service", upstream("http://10.0.0.2:8082", 4000L),
      "callback-dispatcher", upstream("http://10.0.0.3:8085", null));

  @Nested
  class BothEnvironments {

    private final Map<String, RouteDefinition> routes = byId(routes(Set.of(), LIVE));

    @Test
    void givesEveryRouteOfTheSandboxStackItsLiveTwinRightAfterIt() {
      assertThat(ids(routes(Set.of(), LIVE))).containsExactly("dispatcher-admin", "dispatcher-admin-live",
          "dead-letters-collections-service", "dead-letters-collections-service-live", "bank-notifications", "auth",
          "checkout-api", "checkout-api-live", "checkout-page", "checkout-page-live", "collections",
          "collections-live", "daraja-stk-callbacks-live", "daraja-stk-admin-live");
    }

    @Test
    void aLiveOnlyRouteHasItsLiveTwinAloneWithTheLiveSpellingOfItsOperatorPaths() {
      RouteDefinition callbacks = routes.get("daraja-stk-callbacks-live");
      RouteDefinition admin = routes.get("daraja-stk-admin-live");

      assertThat(routes).doesNotContainKeys("daraja-stk-callbacks", "daraja-stk-admin");
      assertThat(paths(callbacks)).containsExactly("/daraja/v1/stk/**");
      assertThat(callbacks.getUri()).isEqualTo(URI.create("http://10.0.0.1:8083"));
      assertThat(circuitBreaker(callbacks)).isEqualTo("collections-service-live");
      assertThat(paths(admin)).containsExactly("/admin/live/v1/daraja/stk-shortcodes",
          "/admin/live/v1/daraja/stk-shortcodes/**");
      assertThat(admin.getFilters().getFirst().getArgs()).containsEntry("replacement", "/admin${rest}");
    }

    @Test
    void theLiveTwinHasTheSandboxPathsWithoutSandboxAndTheEnvironmentlessOnesUnchanged() {
      RouteDefinition live = routes.get("collections-live");

      assertThat(paths(live)).containsExactly("/api/v1/stk/**", "/api/v1/bank/**", "/api/v1/tz/collections/**");
      assertThat(live.getUri()).isEqualTo(URI.create("http://10.0.0.1:8083"));
      assertThat(circuitBreaker(live)).isEqualTo("collections-service-live");
      assertThat(live.getMetadata()).containsEntry("response-timeout", "10000").containsEntry("environment", "live");
      assertThat(environmentPredicate(live)).isEqualTo("live");
      assertThat(environmentPredicate(routes.get("collections"))).isEqualTo("sandbox");
      assertThat(circuitBreaker(routes.get("collections"))).isEqualTo("collections-service");
    }

    @Test
    void aLiveUpstreamsOwnTimeoutReplacesTheSandboxRoutes() {
      assertThat(routes.get("checkout-api-live").getMetadata()).containsEntry("response-timeout", 4000L);
      assertThat(routes.get("checkout-api").getMetadata()).containsEntry("response-timeout", "10000");
    }

    @Test
    void theLiveOperatorAndPagePathsAreSentToTheLiveServiceWithoutLive() {
      RouteDefinition admin = routes.get("dead-letters-collections-service-live");
      RouteDefinition page = routes.get("checkout-page-live");

      assertThat(paths(admin)).containsExactly("/admin/live/v1/dead-letters/collections-service",
          "/admin/live/v1/dead-letters/collections-service/**");
      assertThat(admin.getFilters().getFirst().getArgs()).containsEntry("regexp", "^/admin/live(?<rest>/.*)?$")
          .containsEntry("replacement", "/admin${rest}");
      assertThat(admin.getFilters().get(1).getName()).isEqualTo("RewritePath");
      assertThat(paths(page)).containsExactly("/live/checkout/**");
      assertThat(page.getFilters().getFirst().getArgs()).containsEntry("regexp", "^/live(?<rest>/.*)?$")
          .containsEntry("replacement", "${rest}");
    }

    @Test
    void routesWithoutATokenAreBoundByTheirPathsAlone() {
      assertThat(environmentPredicate(routes.get("checkout-page-live"))).isNull();
      assertThat(environmentPredicate(routes.get("dispatcher-admin-live"))).isNull();
    }

    @Test
    void sharedAndSandboxOnlyRoutesAreLeftAsDeclared() {
      assertThat(paths(routes.get("auth"))).containsExactly("/api/v1/get-token", "/admin/**");
      assertThat(routes).doesNotContainKeys("auth-live", "bank-notifications-live");
    }
  }

  @Nested
  class SandboxOnly {

    @Test
    void isTheDefaultWithoutLiveUpstreams() {
      assertThat(ServedEnvironments.of(gateway(Set.of()), new UpstreamInstances(Map.of(), Map.of())).served())
          .containsExactly(Environment.SANDBOX);
      assertThat(ServedEnvironments.of(gateway(Set.of()), new UpstreamInstances(Map.of(), LIVE)).served())
          .containsExactlyInAnyOrder(Environment.SANDBOX, Environment.LIVE);
    }

    @Test
    void keepsTheLivePathsAsRoutesThatGoNowhere() {
      Map<String, RouteDefinition> routes = byId(routes(Set.of(Environment.SANDBOX), Map.of()));

      for (String id : List.of("dispatcher-admin-live", "checkout-api-live", "checkout-page-live",
          "collections-live")) {
        assertThat(routes.get(id).getMetadata()).as(id).containsEntry(RoutePolicy.SERVED, false);
        assertThat(routes.get(id).getUri()).as(id).isEqualTo(URI.create("no://op"));
        assertThat(routes.get(id).getFilters()).as(id).isEmpty();
      }
      assertThat(paths(routes.get("collections-live"))).contains("/api/v1/stk/**");
      assertThat(routes.get("collections").getMetadata()).doesNotContainKey(RoutePolicy.SERVED);
      // a live-only route too: Daraja's callbacks answer 404 on a sandbox gateway, and its operator paths never fall
      // through to auth-service's /admin/**
      assertThat(routes.get("daraja-stk-callbacks-live").getMetadata()).containsEntry(RoutePolicy.SERVED, false);
      assertThat(paths(routes.get("daraja-stk-admin-live"))).contains("/admin/live/v1/daraja/stk-shortcodes/**");
    }
  }

  @Nested
  class LiveOnly {

    private final List<RouteDefinition> routes = routes(Set.of(Environment.LIVE), LIVE);

    @Test
    void keepsTheSandboxPathsAsRoutesThatGoNowhereAheadOfAuthServicesAdminCatchAll() {
      Map<String, RouteDefinition> byId = byId(routes);

      for (String id : List.of("dispatcher-admin", "dead-letters-collections-service", "bank-notifications",
          "checkout-api", "checkout-page", "collections")) {
        assertThat(byId.get(id).getMetadata()).as(id).containsEntry(RoutePolicy.SERVED, false);
      }
      assertThat(ids(routes).indexOf("dispatcher-admin")).isLessThan(ids(routes).indexOf("auth"));
      assertThat(byId.get("collections-live").getMetadata()).doesNotContainKey(RoutePolicy.SERVED);
      assertThat(byId.get("auth").getMetadata()).doesNotContainKey(RoutePolicy.SERVED);
    }

    @Test
    void sendsARequestWithoutAValidTokenOnAnEnvironmentlessPathToLive() {
      assertThat(new ServedEnvironments(Set.of(Environment.LIVE)).withoutToken()).isEqualTo(Environment.LIVE);
      assertThat(new ServedEnvironments(Set.of(Environment.LIVE, Environment.SANDBOX)).withoutToken())
          .isEqualTo(Environment.SANDBOX);
    }
  }

  @Test
  void refusesToStartLiveWithoutEveryLiveUpstream() {
    Map<String, UpstreamInstances.Upstream> partial = Map.of("collections-service",
        upstream("http://10.0.0.1:8083", null));

    assertThatThrownBy(() -> routes(Set.of(Environment.LIVE), partial))
        .hasMessageContaining("lipa.gateway.live-upstreams.callback-dispatcher.uri is required");
    assertThatThrownBy(() -> routes(Set.of(Environment.LIVE), Map.of()))
        .hasMessageContaining("is required");
  }

  @Test
  void refusesToServeNoEnvironment() {
    assertThatThrownBy(() -> new ServedEnvironments(Set.of())).hasMessageContaining("at least one");
  }

  @Test
  void aBalancedLiveServiceIsKnownToTheLoadBalancerAsServiceLive() {
    UpstreamInstances upstreams = new UpstreamInstances(Map.of(), Map.of("payouts-service",
        new UpstreamInstances.Upstream(URI.create("lb://payouts-service-live"),
            List.of(URI.create("http://10.0.0.4:8084"), URI.create("http://10.0.0.5:8084")), null, null)));

    assertThat(upstreams.balancedServices()).containsExactly("payouts-service-live");
    assertThat(upstreams.instancesOf("payouts-service-live")).hasSize(2);
    assertThat(upstreams.instancesOf("payouts-service")).isEmpty();
    assertThatThrownBy(() -> new UpstreamInstances(Map.of(), Map.of("payouts-service",
        new UpstreamInstances.Upstream(URI.create("lb://payouts-service"), List.of(URI.create("http://10.0.0.4:1")),
            null, null))))
        .hasMessageContaining("lipa.gateway.live-upstreams.payouts-service.uri must be lb://payouts-service-live");
  }

  private static List<RouteDefinition> routes(Set<Environment> environments,
      Map<String, UpstreamInstances.Upstream> live) {
    UpstreamInstances upstreams = new UpstreamInstances(Map.of(), live);
    return new EnvironmentRoutes(declared(), ServedEnvironments.of(gateway(environments), upstreams), upstreams)
        .routes();
  }

  private static dev.lipa.gateway.GatewayProperties gateway(Set<Environment> environments) {
    return new dev.lipa.gateway.GatewayProperties(65536, Set.of(), true, 1, environments);
  }

  /** Routes shaped as application.yml's: operator, sandbox-only, shared, checkout, merchant. */
  private static GatewayProperties declared() {
    GatewayProperties properties = new GatewayProperties();
    properties.setRoutes(List.of(
        route("dispatcher-admin", "callback-dispatcher", "sandbox,live", false, List.of("/admin/v1/callbacks/**")),
        withFilter(route("dead-letters-collections-service", "collections-service", "sandbox,live", false,
            List.of("/admin/v1/dead-letters/collections-service", "/admin/v1/dead-letters/collections-service/**")),
            "RewritePath=/admin/v1/dead-letters/collections-service(?<rest>/.*)?, /admin/v1/dead-letters${rest}"),
        route("bank-notifications", "collections-service", "sandbox", false,
            List.of("/api/v1/banks/*/notifications")),
        route("auth", "auth-service", null, false, List.of("/api/v1/get-token", "/admin/**")),
        route("checkout-api", "checkout-service", "sandbox,live", true, List.of("/api/sandbox/v1/checkout-sessions/**")),
        route("checkout-page", "checkout-service", "sandbox,live", false, List.of("/checkout/**")),
        route("collections", "collections-service", "sandbox,live", true,
            List.of("/api/sandbox/v1/stk/**", "/api/sandbox/v1/bank/**", "/api/v1/tz/collections/**")),
        route("daraja-stk-callbacks", "collections-service", "live", false, List.of("/daraja/v1/stk/**")),
        route("daraja-stk-admin", "collections-service", "live", false,
            List.of("/admin/v1/daraja/stk-shortcodes", "/admin/v1/daraja/stk-shortcodes/**"))));
    return properties;
  }

  private static RouteDefinition route(String id, String service, String environments, boolean token,
      List<String> paths) {
    RouteDefinition route = new RouteDefinition();
    route.setId(id);
    route.setUri(URI.create("http://127.0.0.1:1"));
    route.getPredicates().add(new PredicateDefinition("Path=" + String.join(",", paths)));
    FilterDefinition breaker = new FilterDefinition();
    breaker.setName("CircuitBreaker");
    breaker.addArg("name", service);
    route.getFilters().add(breaker);
    Map<String, Object> metadata = new java.util.LinkedHashMap<>(Map.of(RoutePolicy.SERVICE, service,
        RoutePolicy.TOKEN_REQUIRED, token, "connect-timeout", "2000", "response-timeout", "10000"));
    if (environments != null) {
      metadata.put(EnvironmentRoutes.ENVIRONMENTS, environments);
    }
    route.setMetadata(metadata);
    return route;
  }

  private static RouteDefinition withFilter(RouteDefinition route, String filter) {
    route.getFilters().addFirst(new FilterDefinition(filter));
    return route;
  }

  private static UpstreamInstances.Upstream upstream(String uri, Long responseTimeout) {
    return new UpstreamInstances.Upstream(URI.create(uri), List.of(), null, responseTimeout);
  }

  private static Map<String, RouteDefinition> byId(List<RouteDefinition> routes) {
    return routes.stream().collect(Collectors.toMap(RouteDefinition::getId, r -> r));
  }

  private static List<String> ids(List<RouteDefinition> routes) {
    return routes.stream().map(RouteDefinition::getId).toList();
  }

  private static List<String> paths(RouteDefinition route) {
    return route.getPredicates().stream().filter(p -> p.getName().equals("Path"))
        .flatMap(p -> p.getArgs().values().stream()).toList();
  }

  private static String circuitBreaker(RouteDefinition route) {
    return route.getFilters().stream().filter(f -> f.getName().equals("CircuitBreaker"))
        .map(f -> f.getArgs().get("name")).findFirst().orElse(null);
  }

  private static String environmentPredicate(RouteDefinition route) {
    return route.getPredicates().stream().filter(p -> p.getName().equals(RequestEnvironmentRoutePredicateFactory.NAME))
        .map(p -> p.getArgs().get(RequestEnvironmentRoutePredicateFactory.ENVIRONMENT)).findFirst().orElse(null);
  }
}
