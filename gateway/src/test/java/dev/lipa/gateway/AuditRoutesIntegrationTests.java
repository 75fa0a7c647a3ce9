package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** {@code /admin/v1/audit/<service>} reaches that service's own {@code /admin/v1/audit}, for operators only. */
class AuditRoutesIntegrationTests extends GatewayIntegrationTest {

  @ParameterizedTest
  @ValueSource(strings = {"auth-service", "collections-service", "payouts-service", "checkout-service"})
  void readsTheAuditLogOfTheNamedServiceWithTheQueryIntact(String service) {
    TestHttp.Response response = http().get("/admin/v1/audit/" + service + "?from=2026-03-01&size=10", operator());

    assertThat(response.status()).isEqualTo(200);
    JsonNode echo = response.json();
    assertThat(echo.path("service").asString()).isEqualTo(service);
    assertThat(echo.path("method").asString()).isEqualTo("GET");
    assertThat(echo.path("path").asString()).isEqualTo("/admin/v1/audit");
    assertThat(echo.path("query").asString()).isEqualTo("from=2026-03-01&size=10");
  }

  @Test
  void theAuditLogWithoutAServiceIsAuthServices() {
    TestHttp.Response response = http().get("/admin/v1/audit?page=1", operator());

    assertThat(response.json().path("service").asString()).isEqualTo("auth-service");
    assertThat(response.json().path("path").asString()).isEqualTo("/admin/v1/audit");
  }

  @Test
  void sendsTheDispatchersToTheDispatcher() {
    // the dispatcher is not running in these tests: the gateway names the upstream it could not reach
    TestHttp.Response response = http().get("/admin/v1/audit/callback-dispatcher", operator());

    assertThat(response.status()).isEqualTo(503);
    assertThat(response.body()).contains("callback-dispatcher");
  }

  @ParameterizedTest
  @ValueSource(strings = {"auth-service", "collections-service", "callback-dispatcher"})
  void needsTheOperatorToken(String service) {
    int before = UPSTREAMS.totalCalls();

    TestHttp.Response response = http().get("/admin/v1/audit/" + service,
        Map.of("X-Operator-Token", OPERATOR_TOKEN + "x"));

    assertThat(response.status()).isEqualTo(401);
    assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
  }
}
