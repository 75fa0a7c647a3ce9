package dev.lipa.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import dev.lipa.gateway.support.EchoUpstreams;
import dev.lipa.gateway.support.IdleClosingUpstream;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The gateway does not reuse a pooled connection that has been idle for longer than its pool's max-idle-time
 * (application.yml: 10 s, below the services' 20 s keep-alive; here 1 s against an upstream that closes after 2 s): a
 * POST is never sent on a connection the upstream may be closing at that moment, where it would fail and could not be
 * retried.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.cloud.gateway.server.webflux.httpclient.pool.max-idle-time=1s")
class IdlePooledConnectionIntegrationTests {

  static final IdleClosingUpstream COLLECTIONS = new IdleClosingUpstream(Duration.ofSeconds(2));
  static final String STK = "/api/sandbox/v1/stk/push";
  static final TestIssuer ISSUER = TestIssuer.shared();

  @LocalServerPort
  int port;

  @DynamicPropertySource
  static void upstreams(DynamicPropertyRegistry registry) {
    EchoUpstreams upstreams = EchoUpstreams.shared();
    registry.add("lipa.security.jwks-uri", ISSUER::jwksUri);
    registry.add("lipa.operator.token", () -> "idle-pool-tests-operator-token-0123456789");
    registry.add("lipa.internal.token", () -> "idle-pool-tests-internal-token-0123456789");
    for (String service : new String[] {"auth-service", "checkout-service", "payouts-service"}) {
      registry.add("lipa.gateway.upstreams." + service + ".uri", () -> upstreams.uri(service));
    }
    registry.add("lipa.gateway.upstreams.callback-dispatcher.uri", upstreams::deadUri);
    registry.add("lipa.gateway.upstreams.collections-service.uri", COLLECTIONS::uri);
  }

  TestHttp.Response push() {
    return new TestHttp("http://localhost:" + port).postJson(STK, "{\"reference\":\"" + UUID.randomUUID() + "\"}",
        TestHttp.bearer(ISSUER.accessToken(UUID.randomUUID().toString())));
  }

  @Test
  void aPostAfterTheConnectionSatIdleGoesOnAFreshConnection() throws Exception {
    assertThat(push().status()).isEqualTo(200);
    int connections = COLLECTIONS.connections();

    // the scenario itself: the pooled connection sits idle past the upstream's keep-alive timeout
    Thread.sleep(Duration.ofMillis(2500));
    TestHttp.Response second = push();

    assertThat(COLLECTIONS.dropped()).as("POSTs sent on a connection the upstream was closing").isZero();
    assertThat(second.status()).isEqualTo(200);
    assertThat(COLLECTIONS.connections()).as("a fresh connection").isEqualTo(connections + 1);
  }
}
