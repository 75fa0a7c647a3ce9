package dev.lipa.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import dev.lipa.gateway.GatewayApplication;
import dev.lipa.gateway.support.EchoUpstreams;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Requests per organisation with two gateway replicas ({@code lipa.gateway.replicas=2}): two gateway application
 * contexts on their own ports in front of the same echoing upstreams, as a load balancer would spread a merchant's
 * calls. Each admits its half, so the organisation's total stays at its limit, and another organisation is not
 * touched.
 */
class OrganisationRateLimitIntegrationTests {

  private static final EchoUpstreams UPSTREAMS = EchoUpstreams.shared();
  private static final TestIssuer ISSUER = TestIssuer.shared();
  private static final String STK_ALL = "/api/sandbox/v1/stk/all";
  private static final List<ConfigurableApplicationContext> GATEWAYS = new ArrayList<>();

  @BeforeAll
  static void startTwoGateways() {
    for (int i = 0; i < 2; i++) {
      Map<String, Object> properties = new HashMap<>();
      properties.put("server.port", 0);
      properties.put("management.server.port", 0);
      properties.put("lipa.gateway.replicas", 2);
      properties.put("lipa.security.jwks-uri", ISSUER.jwksUri());
      for (String service : new String[] {"auth-service", "checkout-service", "collections-service",
          "payouts-service"}) {
        properties.put("lipa.gateway.upstreams." + service + ".uri", UPSTREAMS.uri(service));
      }
      properties.put("lipa.gateway.upstreams.callback-dispatcher.uri", UPSTREAMS.deadUri());
      // as command-line arguments: they take precedence over application.yml (default properties would not)
      GATEWAYS.add(new SpringApplicationBuilder(GatewayApplication.class)
          .run(properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
              .toArray(String[]::new)));
    }
  }

  // No @AfterAll close: closing a gateway context disposes the JVM's global Reactor Netty resources, which the cached
  // test contexts' servers run on (their management server then refuses connections). Like the cached contexts, these
  // two close with the JVM (Spring Boot's shutdown hook). Netty resources of their own instead made their requests
  // hang after a 429.

  private static TestHttp gateway(int i) {
    return new TestHttp("http://127.0.0.1:" + GATEWAYS.get(i).getEnvironment().getProperty("local.server.port"));
  }

  private static Map<String, String> tokenWithLimit(String organisation, Integer requestsPerSecond) {
    return TestHttp.bearer(ISSUER.token(organisation, claims -> {
      if (requestsPerSecond != null) {
        claims.claim(TokenClaims.REQUESTS_PER_SECOND, requestsPerSecond);
      }
    }));
  }

  /** Sends {@code count} GETs, alternating between the two gateways, 16 at a time; the statuses per gateway. */
  private static List<List<TestHttp.Response>> burst(String path, Map<String, String> headers, int count)
      throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(16);
    try {
      List<Future<TestHttp.Response>> sent = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int replica = i % 2;
        Callable<TestHttp.Response> call = () -> gateway(replica).get(path, headers);
        sent.add(threads.submit(call));
      }
      List<List<TestHttp.Response>> answers = List.of(new ArrayList<>(), new ArrayList<>());
      for (int i = 0; i < count; i++) {
        answers.get(i % 2).add(sent.get(i).get());
      }
      return answers;
    } finally {
      threads.shutdownNow();
    }
  }

  private static long admitted(List<TestHttp.Response> answers) {
    return answers.stream().filter(r -> r.status() == 200).count();
  }

  @Nested
  class RequestsPerOrganisation {

    @Test
    void twoReplicasTogetherAdmitTheOrganisationsLimitAndNoMore() throws Exception {
      // 10 a second with a burst of 20: each replica 5 a second with a burst of 10
      Map<String, String> token = tokenWithLimit(UUID.randomUUID().toString(), 10);
      long started = System.nanoTime();

      List<List<TestHttp.Response>> answers = burst(STK_ALL, token, 120);

      double seconds = (System.nanoTime() - started) / 1e9;
      long first = admitted(answers.get(0));
      long second = admitted(answers.get(1));
      // the bursts are spent at once; after that each replica gives back 5 a second, whatever the machine's speed
      assertThat(first).isBetween(10L, 10L + (long) Math.ceil(5 * seconds));
      assertThat(second).isBetween(10L, 10L + (long) Math.ceil(5 * seconds));
      assertThat(first + second).isLessThanOrEqualTo(20L + (long) Math.ceil(10 * seconds));
      assertThat(answers.stream().flatMap(List::stream).filter(r -> r.status() != 200))
          .allSatisfy(r -> assertThat(r.status()).isEqualTo(429));
    }

    @Test
    void anotherOrganisationIsNotTouched() throws Exception {
      burst(STK_ALL, tokenWithLimit(UUID.randomUUID().toString(), 1), 40);

      // the default, 50 a second with a burst of 100: 25 and 50 per replica
      List<List<TestHttp.Response>> other = burst(STK_ALL, tokenWithLimit(UUID.randomUUID().toString(), null), 90);

      assertThat(admitted(other.get(0)) + admitted(other.get(1))).isEqualTo(90);
    }

    @Test
    void answers429WithRetryAfterInTheEnvelope() throws Exception {
      Map<String, String> token = tokenWithLimit(UUID.randomUUID().toString(), 1);
      int before = UPSTREAMS.calls("collections-service");

      // 1 a second, so each replica holds 1 token and gets one back every 2 seconds
      TestHttp.Response first = gateway(0).get(STK_ALL, token);
      TestHttp.Response refused = gateway(0).get(STK_ALL, token);

      assertThat(first.status()).isEqualTo(200);
      assertThat(refused.status()).isEqualTo(429);
      assertThat(refused.body()).isEqualTo("{\"status\":429,\"message\":\"Too Many Requests\",\"data\":null}");
      assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(seconds ->
          assertThat(Long.parseLong(seconds)).isBetween(1L, 2L));
      assertThat(UPSTREAMS.calls("collections-service")).isEqualTo(before + 1);
    }

    @Test
    void answersTheCheckoutErrorBodyOnCheckoutSessionPaths() {
      Map<String, String> token = tokenWithLimit(UUID.randomUUID().toString(), 1);
      String path = "/api/sandbox/v1/checkout-sessions/" + UUID.randomUUID();
      gateway(1).get(path, token);

      TestHttp.Response refused = gateway(1).get(path, token);

      assertThat(refused.status()).isEqualTo(429);
      assertThat(refused.body()).isEqualTo("{\"message\":\"Too Many Requests\",\"errors\":{}}");
      assertThat(refused.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void routesWithoutATokenAreNotCountedHere() throws Exception {
      List<List<TestHttp.Response>> answers = burst("/.well-known/jwks.json", Map.of(), 40);
      assertThat(admitted(answers.get(0)) + admitted(answers.get(1))).isEqualTo(40);
    }
  }
}
