package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.gateway.support.EchoUpstreams;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class UpstreamFailureIntegrationTests extends GatewayIntegrationTest {

  static final String DISPATCHER_DOWN =
      "{\"status\":503,\"message\":\"callback-dispatcher is temporarily unavailable\",\"data\":null}";
  static final String PAYOUTS_DOWN =
      "{\"status\":503,\"message\":\"payouts-service is temporarily unavailable\",\"data\":null}";

  @Autowired
  CircuitBreakerRegistry circuitBreakers;

  @Nested
  class ServiceDown {

    @Test
    void answers503EnvelopeNamingTheService() {
      TestHttp.Response response = http().get("/api/v1/callbacks/deliveries", authorized());

      assertThat(response.status()).isEqualTo(503);
      assertThat(response.body()).isEqualTo(DISPATCHER_DOWN);
      assertThat(response.headers().firstValue("X-Correlation-Id")).isPresent();
    }

    @Test
    void routesTheDispatchersOperatorPathsToTheDispatcherNotToAuthService() {
      TestHttp.Response response = http().get("/admin/v1/callbacks/dead", operator());

      assertThat(response.status()).isEqualTo(503);
      assertThat(response.body()).isEqualTo(DISPATCHER_DOWN);
    }

    @Test
    void opensTheServicesCircuitBreakerAndKeepsAnsweringTheSameEnvelope() {
      CircuitBreaker breaker = circuitBreakers.circuitBreaker("callback-dispatcher");
      assertThat(breaker.getCircuitBreakerConfig().getMinimumNumberOfCalls())
          .as("configured from the named instance in application.yml").isEqualTo(20);

      for (int i = 0; i < 25 && breaker.getState() != CircuitBreaker.State.OPEN; i++) {
        assertThat(http().get("/api/v1/callbacks/deliveries", authorized()).body()).isEqualTo(DISPATCHER_DOWN);
      }

      assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
      TestHttp.Response whileOpen = http().get("/api/v1/callbacks/deliveries", authorized());
      assertThat(whileOpen.status()).isEqualTo(503);
      assertThat(whileOpen.body()).isEqualTo(DISPATCHER_DOWN);
      assertThat(circuitBreakers.circuitBreaker("collections-service").getState())
          .as("one service's breaker does not affect another's").isEqualTo(CircuitBreaker.State.CLOSED);
    }
  }

  @Nested
  class ServiceTooSlow {

    @Test
    void answers503EnvelopeOnceTheRouteTimeoutPasses() {
      long started = System.nanoTime();

      TestHttp.Response response = http().get("/api/sandbox/v1/paybill/all",
          authorized(EchoUpstreams.DELAY_HEADER, "4000"));

      long millis = (System.nanoTime() - started) / 1_000_000;
      assertThat(response.status()).isEqualTo(503);
      assertThat(response.body()).isEqualTo(PAYOUTS_DOWN);
      assertThat(millis).isGreaterThanOrEqualTo(PAYOUTS_TIMEOUT_MILLIS).isLessThan(3500);
    }
  }
}
