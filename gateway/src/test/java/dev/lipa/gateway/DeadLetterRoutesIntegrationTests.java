package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** {@code /admin/v1/dead-letters/<service>/**} reaches that service's own {@code /admin/v1/dead-letters/**}. */
class DeadLetterRoutesIntegrationTests extends GatewayIntegrationTest {

  // the operator token is checked by the gateway and travels on to the service, which checks it again
  private static final Map<String, String> OPERATOR = operator();

  @ParameterizedTest
  @ValueSource(strings = {"auth-service", "collections-service", "payouts-service", "checkout-service"})
  void listsTheDeadLettersOfTheNamedServiceWithTheQueryIntact(String service) {
    TestHttp.Response response = http().get("/admin/v1/dead-letters/" + service + "?status=DEAD&size=10", OPERATOR);

    assertThat(response.status()).isEqualTo(200);
    JsonNode echo = response.json();
    assertThat(echo.path("service").asString()).isEqualTo(service);
    assertThat(echo.path("path").asString()).isEqualTo("/admin/v1/dead-letters");
    assertThat(echo.path("query").asString()).isEqualTo("status=DEAD&size=10");
    assertThat(echo.path("headers").path("x-operator-token").path(0).asString())
        .isEqualTo(OPERATOR_TOKEN);
  }

  @ParameterizedTest
  @ValueSource(strings = {"auth-service", "collections-service", "payouts-service", "checkout-service"})
  void replaysADeadLetterOfTheNamedService(String service) {
    TestHttp.Response response = http().postJson(
        "/admin/v1/dead-letters/" + service + "/0b9d1c3e-8f4a-4e6b-9c2d-7a1e5f3b8c90/replay", "", OPERATOR);

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.json().path("service").asString()).isEqualTo(service);
    assertThat(response.json().path("method").asString()).isEqualTo("POST");
    assertThat(response.json().path("path").asString())
        .isEqualTo("/admin/v1/dead-letters/0b9d1c3e-8f4a-4e6b-9c2d-7a1e5f3b8c90/replay");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/admin/v1/dead-letters/callback-dispatcher",
      "/admin/v1/dead-letters/callback-dispatcher/0b9d1c3e-8f4a-4e6b-9c2d-7a1e5f3b8c90"})
  void sendsTheDispatchersToTheDispatcher(String path) {
    // the dispatcher is not running in these tests: the gateway names the upstream it could not reach
    TestHttp.Response response = http().get(path, OPERATOR);

    assertThat(response.status()).isEqualTo(503);
    assertThat(response.body()).contains("callback-dispatcher");
  }
}
