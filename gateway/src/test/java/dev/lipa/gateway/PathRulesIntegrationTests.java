package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.PathRuleChecks;
import dev.lipa.common.testsupport.PathRuleChecks.Protected;
import dev.lipa.common.testsupport.RawHttp;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The gateway decides on the path that is routed: every other spelling of every route's path is refused with 400
 * before routing (nothing reaches an upstream), and the operator API wants the operator token at the gateway itself.
 */
class PathRulesIntegrationTests extends GatewayIntegrationTest {

  @Nested
  class Spellings {

    @Test
    void refusesEveryOtherSpellingOfEveryRoutedPathBeforeAnyUpstreamIsCalled() {
      Map<String, String> merchant = authorized("Device-Id", "device-1");
      Map<String, String> live = TestHttp.bearer(liveToken());
      int callsBefore = UPSTREAMS.totalCalls();

      PathRuleChecks.assertEverySpellingRefused("127.0.0.1", port, List.of(
          new Protected("POST", "/admin/v1/organisations", operator()),
          new Protected("POST", "/admin/v1/organisations/5d0c/api-keys", operator()),
          new Protected("GET", "/admin/v1/callbacks/dead", operator()),
          new Protected("POST", "/api/v1/get-token", Map.of()),
          new Protected("GET", "/.well-known/jwks.json", Map.of()),
          new Protected("POST", "/api/sandbox/v1/checkout-sessions", merchant),
          new Protected("GET", "/checkout/cs_123", Map.of()),
          new Protected("POST", "/api/sandbox/v1/stk/new", merchant),
          new Protected("GET", "/api/v1/tz/collections/single", merchant),
          new Protected("POST", "/api/sandbox/v1/send-money", merchant),
          new Protected("POST", "/api/sandbox/v1/balance/top-up", merchant),
          new Protected("POST", "/api/v1/banks/kcb/notifications", Map.of()),
          new Protected("GET", "/api/v1/callbacks/signing-secret", merchant),
          new Protected("POST", "/internal/v1/stk-pushes", Map.of("X-Internal-Token", "anything")),
          new Protected("POST", "/api/v1/stk/new", live),
          new Protected("POST", "/api/v1/checkout-sessions", live),
          new Protected("GET", "/api/v1/balance", live),
          new Protected("GET", "/live/checkout/cs_123", Map.of()),
          new Protected("GET", "/admin/live/v1/callbacks/dead", operator()),
          new Protected("GET", "/admin/live/v1/dead-letters/collections-service", operator())));

      assertThat(UPSTREAMS.totalCalls()).as("requests that reached a service").isEqualTo(callsBefore);
    }

    @Test
    void answersTheRefusalInTheEnvelope() {
      RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "POST", "/%61dmin/v1/organisations/5d0c/api-keys",
          Map.of(), null);

      assertThat(answer.status()).isEqualTo(400);
      assertThat(answer.body()).isEqualTo("{\"status\":400,\"message\":\"Malformed request path: percent-encoded "
          + "characters are not accepted in the path\",\"data\":null}");
    }

    /**
     * A refusal waits for the small body the client is still sending: answering and closing first resets the
     * connection under the client, which may then never read the answer (seen as "Connection reset" in CI).
     */
    @ParameterizedTest
    @ValueSource(strings = {"/daraja/v1/stk/x;y", "/%61pi/sandbox/v1/stk/new", "/api/sandbox/v1/stk/new",
        "/admin/v1/organisations"})
    void answersARefusalTheClientCanReadWhenItsBodyArrivesLate(String path) {
      RawHttp.Answer answer = RawHttp.sendBodyLate("127.0.0.1", port, "POST", path,
          Map.of("Content-Type", "application/json"), "{\"amount\":10}", Duration.ofMillis(300));

      assertThat(answer.status()).as("POST %s", path).isIn(400, 401);
      assertThat(answer.body()).startsWith("{\"status\":" + answer.status() + ",");
    }

    /**
     * The same for every other answer of the gateway's own, past the token check: a key of the other environment
     * (403, the refusal that reset the connection in CI), a path no route serves (404) and a body that is not JSON
     * (415). None of them reaches a service.
     */
    @Test
    void answersEveryOtherRefusalTheClientCanReadWhenItsBodyArrivesLate() {
      Map<String, String> sandboxJson = new HashMap<>(authorized("Content-Type", "application/json"));
      Map<String, String> liveJson = new HashMap<>(TestHttp.bearer(liveToken()));
      liveJson.put("Content-Type", "application/json");
      Map<String, String> sandboxText = new HashMap<>(authorized("Content-Type", "text/plain"));
      record Refusal(String path, Map<String, String> headers, int status) {
      }
      // a body near the largest the gateway waits for, sent with the head: most of it is still unread when it answers
      String body = "{\"note\":\"" + "x".repeat(60_000) + "\"}";
      int callsBefore = UPSTREAMS.totalCalls();

      for (Refusal refusal : List.of(new Refusal("/api/v1/stk/new", sandboxJson, 403),
          new Refusal("/api/sandbox/v1/stk/new", liveJson, 403),
          new Refusal("/api/v1/stk/new/", sandboxJson, 403),
          new Refusal("/api/v2/stk/new", liveJson, 404),
          new Refusal("/api/SANDBOX/v1/stk/new", sandboxJson, 404),
          new Refusal("/api/sandbox/v1/stk/new", sandboxText, 415))) {
        for (int attempt = 0; attempt < 20; attempt++) {
          RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "POST", refusal.path(), refusal.headers(), body);

          assertThat(answer.status()).as("POST %s", refusal.path()).isEqualTo(refusal.status());
          assertThat(answer.body()).as("POST %s", refusal.path()).startsWith("{\"status\":" + refusal.status() + ",");
        }
      }
      assertThat(UPSTREAMS.totalCalls()).as("requests that reached a service").isEqualTo(callsBefore);
    }

    @Test
    void decodesAQueryStringAsUsual() {
      TestHttp.Response response = http().get("/api/sandbox/v1/stk/all?from=2026%2D01%2D01&note=a%2Fb%3Bc",
          authorized());

      assertThat(response.status()).isEqualTo(200);
      JsonNode echo = response.json();
      assertThat(echo.get("path").stringValue()).isEqualTo("/api/sandbox/v1/stk/all");
      assertThat(echo.get("query").stringValue()).isEqualTo("from=2026%2D01%2D01&note=a%2Fb%3Bc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/ADMIN/v1/organisations", "/Admin/v1/organisations", "/administrators",
        "/api/SANDBOX/v1/stk/new"})
    void routesNoOtherCaseOrLookAlikeOfAProtectedPrefix(String path) {
      int callsBefore = UPSTREAMS.totalCalls();

      TestHttp.Response response = http().postJson(path, "{}", Map.of());

      assertThat(response.status()).isEqualTo(404);
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(callsBefore);
    }
  }

  @Nested
  class OperatorToken {

    @ParameterizedTest
    @ValueSource(strings = {"/admin", "/admin/v1/organisations", "/admin/v1/callbacks/dead",
        "/admin/v1/organisations/5d0c/api-keys"})
    void refusesTheOperatorApiWithoutTheTokenBeforeRoutingIt(String path) {
      int callsBefore = UPSTREAMS.totalCalls();

      TestHttp.Response none = http().postJson(path, "{}", Map.of());
      TestHttp.Response merchantToken = http().postJson(path, "{}", authorized());
      TestHttp.Response wrong = http().postJson(path, "{}", Map.of("X-Operator-Token", OPERATOR_TOKEN + "x"));

      for (TestHttp.Response response : List.of(none, merchantToken, wrong)) {
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.body())
            .isEqualTo("{\"status\":401,\"message\":\"a valid X-Operator-Token header is required\",\"data\":null}");
      }
      assertThat(UPSTREAMS.totalCalls()).as("requests that reached a service").isEqualTo(callsBefore);
    }

    @Test
    void tellsTheServiceTheClientsRealAddressWhateverTheClientClaims() {
      Map<String, String> headers = new HashMap<>(authorized());
      headers.put("X-Forwarded-For", "1.2.3.4, 5.6.7.8");

      TestHttp.Response response = http().get("/api/sandbox/v1/balance", headers);

      // the services believe the gateway's X-Forwarded-For (their limits and audit log key on it)
      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().path("headers").path("x-forwarded-for").get(0).stringValue()).isEqualTo("127.0.0.1");
      assertThat(response.json().path("headers").path("x-forwarded-for").size()).isEqualTo(1);
    }

    @Test
    void forwardsTheOperatorsRequestWithItsTokenSoTheServiceChecksItAgain() {
      Map<String, String> headers = new HashMap<>(operator());

      TestHttp.Response response = http().postJson("/admin/v1/organisations", "{\"name\":\"x\"}", headers);

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("service").stringValue()).isEqualTo("auth-service");
      assertThat(response.json().path("headers").path("x-operator-token").get(0).stringValue())
          .isEqualTo(OPERATOR_TOKEN);
    }
  }
}
