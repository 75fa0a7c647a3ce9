package dev.lipa.gateway.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.gateway.routing.RoutePolicy;
import dev.lipa.gateway.web.Envelopes;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

class BearerTokenGatewayFilterTests {

  private final AtomicBoolean proxied = new AtomicBoolean();
  private final GatewayFilterChain chain = exchange -> {
    proxied.set(true);
    return Mono.empty();
  };

  @Test
  void answers503EnvelopeWhenTheKeysCannotBeFetched() throws IOException {
    BearerTokenGatewayFilter filter = filterWithJwksAt(URI.create("http://127.0.0.1:" + deadPort() + "/jwks"));
    MockServerWebExchange exchange = exchange(true, "Bearer " + aSignedLookingToken());

    filter.filter(exchange, chain).block(Duration.ofSeconds(10));

    assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(exchange.getResponse().getBodyAsString().block()).isEqualTo(
        "{\"status\":503,\"message\":\"authentication is temporarily unavailable\",\"data\":null}");
    assertThat(proxied).isFalse();
  }

  @Test
  void letsPublicRoutesThroughWithoutAToken() throws IOException {
    BearerTokenGatewayFilter filter = filterWithJwksAt(URI.create("http://127.0.0.1:" + deadPort() + "/jwks"));
    MockServerWebExchange exchange = exchange(false, null);

    filter.filter(exchange, chain).block(Duration.ofSeconds(10));

    assertThat(proxied).isTrue();
    assertThat(exchange.getResponse().getStatusCode()).isNull();
  }

  static java.util.stream.Stream<Arguments> headers() {
    return java.util.stream.Stream.of(
        Arguments.of(Named.of("absent", null), null),
        Arguments.of(Named.of("scheme only", "Bearer"), null),
        Arguments.of(Named.of("scheme and blanks", "Bearer    "), null),
        Arguments.of(Named.of("other scheme", "Basic abc"), null),
        Arguments.of(Named.of("bearer", "Bearer abc.def.ghi"), "abc.def.ghi"),
        Arguments.of(Named.of("lower-case scheme", "bearer abc.def.ghi"), "abc.def.ghi"),
        Arguments.of(Named.of("trailing blanks", "Bearer abc.def.ghi  "), "abc.def.ghi"));
  }

  @ParameterizedTest
  @MethodSource("headers")
  void readsTheTokenOfABearerHeaderOnly(String header, String token) {
    assertThat(BearerTokenGatewayFilter.bearerToken(header)).isEqualTo(token);
  }

  private static BearerTokenGatewayFilter filterWithJwksAt(URI jwks) {
    Clock clock = Clock.systemUTC();
    JwksKeys keys = new JwksKeys(jwks, clock, Duration.ofSeconds(10));
    TokenVerifier verifier = new TokenVerifier(keys, "lipa-auth", "lipa-api", clock, Duration.ofMinutes(5));
    return new BearerTokenGatewayFilter(new AccessTokens(verifier),
        new Envelopes(JsonMapper.builder().build()));
  }

  private static MockServerWebExchange exchange(boolean tokenRequired, String authorization) {
    MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/api/sandbox/v1/stk/all");
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    MockServerWebExchange exchange = MockServerWebExchange.from(request);
    Route route = Route.async().id("test").uri(URI.create("http://localhost:1")).predicate(e -> true)
        .metadata(Map.of(RoutePolicy.TOKEN_REQUIRED, tokenRequired, RoutePolicy.SERVICE, "test-service"))
        .build();
    exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR, route);
    return exchange;
  }

  /** Header {"alg":"ES256","kid":"k1"}: parses, so the verifier goes looking for the key. */
  private static String aSignedLookingToken() {
    return "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
  }

  private static int deadPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
