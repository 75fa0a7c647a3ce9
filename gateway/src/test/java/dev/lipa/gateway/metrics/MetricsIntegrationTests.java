package dev.lipa.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.testsupport.RawHttp;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.gateway.GatewayIntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gateway's metrics: on its management port only, never on the public one in any spelling, requests timed by
 * route and status with no raw path or id in a tag, and rate-limit refusals counted by route.
 */
class MetricsIntegrationTests extends GatewayIntegrationTest {

  private TestHttp management() {
    return new TestHttp("http://127.0.0.1:" + managementPort);
  }

  private String page() {
    TestHttp.Response response = management().get("/actuator/prometheus", Map.of());
    assertThat(response.status()).isEqualTo(200);
    return response.body();
  }

  /** The sum of the series of {@code name} whose labels include all of {@code labels}; 0 when there is none yet. */
  private static double valueOrZero(String page, String name, String... labels) {
    return page.contains(name + "{") ? sum(page, name, false, labels) : 0;
  }

  private static double value(String page, String name, String... labels) {
    return sum(page, name, true, labels);
  }

  private static double sum(String page, String name, boolean required, String... labels) {
    Matcher line = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)} (\\S+)$").matcher(page);
    double sum = 0;
    boolean found = false;
    while (line.find()) {
      if (List.of(labels).stream().allMatch(line.group(1)::contains)) {
        sum += Double.parseDouble(line.group(2));
        found = true;
      }
    }
    if (required) {
      assertThat(found).as("a series %s with %s", name, List.of(labels)).isTrue();
    }
    return sum;
  }

  @Test
  void servesTheProbesAndTheMetricsOnTheManagementPort() {
    assertThat(managementPort).isNotEqualTo(port);
    assertThat(management().get("/actuator/health/readiness", Map.of()).body()).contains("\"UP\"");
    assertThat(page()).contains("jvm_memory_used_bytes{", "application=\"gateway\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/actuator/prometheus", "/actuator/health", "/actuator/health/readiness", "/actuator",
      "/actuator/prometheus/", "/ACTUATOR/prometheus", "/%61ctuator/prometheus", "/actuator%2Fprometheus",
      "//actuator/prometheus", "/api/../actuator/prometheus", "/./actuator/prometheus", "/actuator;x=y/prometheus",
      "/api/sandbox/v1/stk/../../../actuator/prometheus", "/actuator/%70rometheus"})
  void thePublicPortServesNoActuatorPathInAnySpelling(String target) {
    int callsBefore = UPSTREAMS.totalCalls();

    RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "GET", target, Map.of(), null);

    // the plain path is a 404 like any unknown path; every other spelling is refused by the path rules first (400)
    assertThat(answer.status()).isIn(400, 404);
    assertThat(answer.body()).doesNotContain("# HELP", "jvm_", "UP");
    assertThat(UPSTREAMS.totalCalls()).as("requests that reached a service").isEqualTo(callsBefore);
  }

  @Test
  void timesProxiedRequestsByRouteAndStatusNeverByTheirPathOrIds() {
    String organisation = UUID.randomUUID().toString();
    String id = UUID.randomUUID().toString();
    Map<String, String> merchant = TestHttp.bearer(ISSUER.accessToken(organisation));
    double before = valueOrZero(page(), "http_server_requests_seconds_count", "route=\"collections\"",
        "status=\"200\"");

    for (String path : List.of("/api/sandbox/v1/stk/" + id, "/api/sandbox/v1/stk/all?phoneNumber=254712345678",
        "/api/v1/tz/collections/single?requestId=" + id, "/api/sandbox/v1/bank/collection/" + id)) {
      assertThat(http().get(path, withDevice(merchant)).status()).as(path).isEqualTo(200);
    }
    http().get("/nowhere/" + id, merchant);
    http().get("/api/sandbox/v1/stk/" + id, Map.of("Authorization", "Bearer " + id));

    String page = page();
    assertThat(value(page, "http_server_requests_seconds_count", "route=\"collections\"", "status=\"200\""))
        .isGreaterThanOrEqualTo(before + 4);
    value(page, "http_server_requests_seconds_count", "route=\"none\"", "status=\"404\"");
    value(page, "http_server_requests_seconds_count", "route=\"collections\"", "status=\"401\"");
    assertThat(page).doesNotContain(id, organisation, "254712345678", "/api/sandbox/v1/stk/");
  }

  @Test
  void countsRateLimitRefusalsByRouteFromZero() {
    double before = value(page(), "lipa_gateway_rate_limit_refusals_total", "route=\"collections\"");
    value(page(), "lipa_gateway_rate_limit_refusals_total", "route=\"payouts\"");
    Map<String, String> limited = TestHttp.bearer(ISSUER.token(UUID.randomUUID().toString(),
        claims -> claims.claim(TokenClaims.REQUESTS_PER_SECOND, 1)));

    int refused = 0;
    for (int i = 0; i < 6; i++) {
      if (http().get("/api/sandbox/v1/stk/all", limited).status() == 429) {
        refused++;
      }
    }

    assertThat(refused).isPositive();
    assertThat(value(page(), "lipa_gateway_rate_limit_refusals_total", "route=\"collections\""))
        .isGreaterThanOrEqualTo(before + refused);
  }

  private static Map<String, String> withDevice(Map<String, String> headers) {
    java.util.HashMap<String, String> all = new java.util.HashMap<>(headers);
    all.put("Device-Id", "device-1");
    return all;
  }
}
