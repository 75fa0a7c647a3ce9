package dev.lipa.gateway;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import dev.lipa.gateway.support.EchoUpstreams;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The one Spring context of the gateway's integration tests: the gateway on a random port in front of echoing
 * upstreams (callback-dispatcher pointed at a port nobody listens on), the live stack's echoing upstreams too (so the
 * gateway serves both environments), tokens and revocations from the shared test
 * issuer, a payouts response timeout of one second so slow-upstream tests stay quick, and its Actuator on a free
 * port of its own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class GatewayIntegrationTest {

  protected static final EchoUpstreams UPSTREAMS = EchoUpstreams.shared();
  protected static final TestIssuer ISSUER = TestIssuer.shared();
  protected static final long PAYOUTS_TIMEOUT_MILLIS = 1000;
  /** The services each environment runs a stack of (the live ones answer as {@code <service>-live}). */
  protected static final String[] LIVE_SERVICES = {"checkout-service", "collections-service", "payouts-service",
      "callback-dispatcher"};
  protected static final String OPERATOR_TOKEN = "gateway-tests-operator-token-0123456789abcdef";
  /** What the gateway presents to auth-service's revocation feed (served here by the test issuer). */
  protected static final String INTERNAL_TOKEN = "gateway-tests-internal-token-0123456789abcdef";

  @LocalServerPort
  protected int port;

  /** Where the gateway's Actuator listens (probes, /actuator/prometheus): never the public port. */
  @LocalManagementPort
  protected int managementPort;

  @DynamicPropertySource
  static void gatewayProperties(DynamicPropertyRegistry registry) {
    registry.add("lipa.security.jwks-uri", ISSUER::jwksUri);
    registry.add("lipa.operator.token", () -> OPERATOR_TOKEN);
    registry.add("lipa.internal.token", () -> INTERNAL_TOKEN);
    for (String service : new String[] {"auth-service", "checkout-service", "collections-service",
        "payouts-service"}) {
      registry.add("lipa.gateway.upstreams." + service + ".uri", () -> UPSTREAMS.uri(service));
    }
    registry.add("lipa.gateway.upstreams.callback-dispatcher.uri", UPSTREAMS::deadUri);
    for (String service : LIVE_SERVICES) {
      registry.add("lipa.gateway.live-upstreams." + service + ".uri", () -> UPSTREAMS.uri(service + "-live"));
    }
    registry.add("lipa.gateway.upstreams.payouts-service.response-timeout-millis", () -> PAYOUTS_TIMEOUT_MILLIS);
    // the management endpoints on a port of their own, as always, here a free one
    registry.add("management.server.port", () -> 0);
  }

  protected TestHttp http() {
    return new TestHttp("http://localhost:" + port);
  }

  protected String baseUrl() {
    return "http://localhost:" + port;
  }

  /** The operator's header, which the gateway checks itself on /admin/** before routing. */
  protected static Map<String, String> operator() {
    return Map.of("X-Operator-Token", OPERATOR_TOKEN);
  }

  protected static String validToken() {
    return ISSUER.accessToken(UUID.randomUUID().toString());
  }

  /** A valid access token of a live key, for a fresh organisation. */
  protected static String liveToken() {
    return ISSUER.token(UUID.randomUUID().toString(),
        claims -> claims.claim(TokenClaims.ENVIRONMENT, Environment.LIVE.claim()));
  }

  /** Bearer header for a fresh organisation plus any extra headers (name, value, name, value...). */
  protected static Map<String, String> authorized(String... extra) {
    Map<String, String> headers = new HashMap<>(TestHttp.bearer(validToken()));
    for (int i = 0; i < extra.length; i += 2) {
      headers.put(extra[i], extra[i + 1]);
    }
    return headers;
  }
}
