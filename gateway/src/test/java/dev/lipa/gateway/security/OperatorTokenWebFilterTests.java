package dev.lipa.gateway.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.ratelimit.ClientAddresses;
import dev.lipa.common.security.OperatorTokens;
import dev.lipa.gateway.GatewayProperties;
import dev.lipa.gateway.web.Envelopes;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

class OperatorTokenWebFilterTests {

  private static final String TOKEN = "operator-token-for-tests-0123456789abcdef";
  private static final Envelopes ENVELOPES = new Envelopes(JsonMapper.builder().build());
  private static final ClientAddresses ADDRESSES = new ClientAddresses(ClientAddresses.LOOPBACK);

  private final AtomicBoolean passed = new AtomicBoolean();
  private final WebFilterChain chain = exchange -> {
    passed.set(true);
    return Mono.empty();
  };

  @Test
  void aPublicGatewayWithTheOperatorApiOffAnswers404EvenWithTheToken() {
    OperatorTokenWebFilter filter = filter(TOKEN, properties(false));
    MockServerWebExchange exchange = MockServerWebExchange.from(
        MockServerHttpRequest.post("/admin/v1/organisations").header("X-Operator-Token", TOKEN));

    filter.filter(exchange, chain).block(Duration.ofSeconds(5));

    assertThat(passed).isFalse();
    assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
  }

  @Test
  void answers503WhenTheGatewayHasNoOperatorToken() {
    OperatorTokenWebFilter filter = filter("", properties(true));
    MockServerWebExchange exchange = MockServerWebExchange.from(
        MockServerHttpRequest.post("/admin/v1/organisations").header("X-Operator-Token", ""));

    filter.filter(exchange, chain).block(Duration.ofSeconds(5));

    assertThat(passed).isFalse();
    assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(exchange.getResponse().getBodyAsString().block())
        .isEqualTo("{\"status\":503,\"message\":\"operator API is not configured\",\"data\":null}");
  }

  @Test
  void decidesOnTheRoutedPathEvenWhereAnOddSpellingGotThrough() {
    // the path rules run first and refuse these; this filter must hold on its own all the same
    OperatorTokenWebFilter filter = filter(TOKEN, properties(true));
    for (String spelling : new String[] {"/%61dmin/v1/organisations", "/admin;x=1/v1/organisations",
        "/x/../admin/v1/organisations"}) {
      passed.set(false);
      MockServerWebExchange exchange = MockServerWebExchange.from(
          MockServerHttpRequest.method(HttpMethod.POST, URI.create(spelling)));

      filter.filter(exchange, chain).block(Duration.ofSeconds(5));

      assertThat(passed).as(spelling).isFalse();
      assertThat(exchange.getResponse().getStatusCode()).as(spelling).isEqualTo(HttpStatus.UNAUTHORIZED);
    }
  }

  @Test
  void leavesEveryOtherPathToTheRoutes() {
    OperatorTokenWebFilter filter = filter(TOKEN, properties(false));
    MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/administrators"));

    filter.filter(exchange, chain).block(Duration.ofSeconds(5));

    assertThat(passed).isTrue();
  }

  @Test
  void admitsEveryNamedOperatorAndNoOneElse() {
    OperatorTokenWebFilter filter = new OperatorTokenWebFilter(
        OperatorTokens.of(TOKEN, Map.of("amina", TOKEN + "-amina", "ci", TOKEN + "-ci")), properties(true), ENVELOPES,
        ADDRESSES);
    for (String token : new String[] {TOKEN, TOKEN + "-amina", TOKEN + "-ci"}) {
      passed.set(false);
      MockServerWebExchange exchange = MockServerWebExchange.from(
          MockServerHttpRequest.post("/admin/v1/organisations").header("X-Operator-Token", token));

      filter.filter(exchange, chain).block(Duration.ofSeconds(5));

      assertThat(passed).as(token).isTrue();
    }
    MockServerWebExchange wrong = MockServerWebExchange.from(
        MockServerHttpRequest.post("/admin/v1/organisations").header("X-Operator-Token", TOKEN + "-amin"));
    passed.set(false);

    filter.filter(wrong, chain).block(Duration.ofSeconds(5));

    assertThat(passed).isFalse();
    assertThat(wrong.getResponse().getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
  }

  private static OperatorTokenWebFilter filter(String token, GatewayProperties properties) {
    return new OperatorTokenWebFilter(OperatorTokens.single(token), properties, ENVELOPES, ADDRESSES);
  }

  private static GatewayProperties properties(boolean operatorApiEnabled) {
    return new GatewayProperties(65536, Set.of(), operatorApiEnabled, 1, Set.of());
  }
}
