package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The checkout-session routes carry {@code error-shape: checkout}: the gateway's own refusals there use the spec's
 * checkout error body instead of the envelope. And internal service paths are never routed.
 */
class CheckoutErrorShapeIntegrationTests extends GatewayIntegrationTest {

  static final String SESSIONS = "/api/sandbox/v1/checkout-sessions";

  @Nested
  class CheckoutSessionRoutes {

    @Test
    void aMissingTokenIs401InTheCheckoutBody() {
      int before = UPSTREAMS.calls("checkout-service");
      TestHttp.Response response = http().postJson(SESSIONS, "{\"amount\":1}", Map.of());
      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo("{\"message\":\"invalid authentication token\",\"errors\":{}}");
      assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
      assertThat(UPSTREAMS.calls("checkout-service")).isEqualTo(before);
    }

    @Test
    void aForgedTokenOnRetrieveIs401InTheCheckoutBody() {
      TestHttp.Response response = http().get(SESSIONS + "/0b7d3c52-6a1e-4c0f-9d3e-2f4f1e6c9a10",
          TestHttp.bearer("not-a-jwt"));
      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo("{\"message\":\"invalid authentication token\",\"errors\":{}}");
    }

    @Test
    void aMissingContentTypeIs415InTheCheckoutBody() {
      TestHttp.Response response = http().send("POST", SESSIONS, "{\"amount\":1}", authorized());
      assertThat(response.status()).isEqualTo(415);
      assertThat(response.body()).isEqualTo("{\"message\":\"Content-Type must be application/json\",\"errors\":{}}");
    }

    @Test
    void aTooLargeBodyIs413InTheCheckoutBody() {
      TestHttp.Response response = http().postJson(SESSIONS, "{\"x\":\"" + "a".repeat(70_000) + "\"}",
          authorized());
      assertThat(response.status()).isEqualTo(413);
      assertThat(response.body()).isEqualTo("{\"message\":\"Request body too large\",\"errors\":{}}");
    }

    @Test
    void otherRoutesKeepTheEnvelope() {
      TestHttp.Response response = http().get("/api/sandbox/v1/stk/all", Map.of());
      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo(TokenCheckIntegrationTests.UNAUTHORIZED);
    }
  }

  @Nested
  class InternalPaths {

    @Test
    void internalPathsAreNotRouted() {
      int before = UPSTREAMS.totalCalls();
      TestHttp.Response response = http().postJson("/internal/v1/stk-pushes", "{}",
          Map.of("X-Internal-Token", "anything"));
      assertThat(response.status()).isEqualTo(404);
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }
  }
}
