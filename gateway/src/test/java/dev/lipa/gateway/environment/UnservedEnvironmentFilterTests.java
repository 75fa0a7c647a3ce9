package dev.lipa.gateway.environment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.web.Envelopes;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

class UnservedEnvironmentFilterTests {

  private final AtomicBoolean proxied = new AtomicBoolean();
  private final GatewayFilterChain chain = exchange -> {
    proxied.set(true);
    return Mono.empty();
  };
  private final UnservedEnvironmentFilter filter = new UnservedEnvironmentFilter(
      new Envelopes(JsonMapper.builder().build()));

  @Test
  void aRouteOfAnEnvironmentNotServedAnswersTheUnknownPaths404AndGoesNowhere() {
    MockServerWebExchange exchange = exchange(Map.of(RoutePolicy.SERVED, false, RoutePolicy.TOKEN_REQUIRED, true));

    filter.filter(exchange, chain).block(Duration.ofSeconds(5));

    assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
    assertThat(exchange.getResponse().getBodyAsString().block())
        .isEqualTo("{\"status\":404,\"message\":\"Not found\",\"data\":null}");
    assertThat(proxied).isFalse();
  }

  @Test
  void aServedRouteGoesOn() {
    MockServerWebExchange exchange = exchange(Map.of(RoutePolicy.TOKEN_REQUIRED, true));

    filter.filter(exchange, chain).block(Duration.ofSeconds(5));

    assertThat(proxied).isTrue();
  }

  private static MockServerWebExchange exchange(Map<String, Object> metadata) {
    MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/v1/stk/all"));
    Route route = Route.async().id("collections-live").uri(URI.create("no://op")).predicate(e -> true)
        .metadata(metadata).build();
    exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR, route);
    return exchange;
  }
}
