package dev.lipa.gateway.support;

import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import java.util.Map;
import java.util.UUID;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The settings of a gateway whose payouts-service has two replicas (lb://payouts-service) and every other service
 * its echoing upstream, for the load-balancing tests (GatewayIntegrationTest's context routes payouts to one).
 */
public final class BalancedGateway {

  private static final TestIssuer ISSUER = TestIssuer.shared();

  private BalancedGateway() {
  }

  public static void register(DynamicPropertyRegistry registry, Replica first, Replica second,
      String healthCheckInterval) {
    EchoUpstreams upstreams = EchoUpstreams.shared();
    registry.add("lipa.security.jwks-uri", ISSUER::jwksUri);
    registry.add("lipa.operator.token", () -> "balanced-gateway-tests-operator-token-0123456789");
    registry.add("lipa.internal.token", () -> "balanced-gateway-tests-internal-token-0123456789");
    for (String service : new String[] {"auth-service", "checkout-service", "collections-service"}) {
      registry.add("lipa.gateway.upstreams." + service + ".uri", () -> upstreams.uri(service));
    }
    registry.add("lipa.gateway.upstreams.callback-dispatcher.uri", upstreams::deadUri);
    registry.add("lipa.gateway.upstreams.payouts-service.uri", () -> "lb://payouts-service");
    registry.add("lipa.gateway.upstreams.payouts-service.instances", () -> first.uri() + "," + second.uri());
    registry.add("spring.cloud.loadbalancer.health-check.interval", () -> healthCheckInterval);
  }

  /** A bearer header for a fresh organisation. */
  public static Map<String, String> authorized() {
    return TestHttp.bearer(ISSUER.accessToken(UUID.randomUUID().toString()));
  }

  /** A payout request body no other request of the test run has. */
  public static String body() {
    return "{\"reference\":\"" + UUID.randomUUID() + "\"}";
  }
}
