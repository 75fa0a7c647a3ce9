package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.testsupport.RawHttp;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.gateway.environment.WrongEnvironmentFilter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sandbox and live through one gateway: each environment's paths go to its own stack, a path without an environment
 * to the stack of the token's, and a key of one environment gets 403 on the other's paths before anything counts or
 * is called, however the path is spelt.
 */
class EnvironmentIntegrationTests extends GatewayIntegrationTest {

  private static final String SANDBOX_KEY = "{\"status\":403,\"message\":\"" + Environment.SANDBOX.wrongPathMessage()
      + "\",\"data\":null}";
  private static final String LIVE_KEY = "{\"status\":403,\"message\":\"" + Environment.LIVE.wrongPathMessage()
      + "\",\"data\":null}";

  @Autowired
  MeterRegistry meters;

  record Call(String method, String sandboxPath, String service) {

    String livePath() {
      return sandboxPath.replace("/api/sandbox/", "/api/");
    }
  }

  /** One operation of every operational path family, on its sandbox path, and the service that owns it. */
  static Stream<Arguments> families() {
    return Stream.of(
        family("POST", "/api/sandbox/v1/stk/new", "collections-service"),
        family("GET", "/api/sandbox/v1/stk/single?requestId=r1", "collections-service"),
        family("GET", "/api/sandbox/v1/bank/collection/all", "collections-service"),
        family("POST", "/api/sandbox/v1/send-money", "payouts-service"),
        family("GET", "/api/sandbox/v1/till/all?companyId=c1", "payouts-service"),
        family("POST", "/api/sandbox/v1/paybill", "payouts-service"),
        family("GET", "/api/sandbox/v1/de-allocations/org/all", "payouts-service"),
        family("GET", "/api/sandbox/v1/balance", "payouts-service"),
        family("GET", "/api/sandbox/v1/balances", "payouts-service"),
        family("POST", "/api/sandbox/v1/checkout-sessions", "checkout-service"),
        family("GET", "/api/sandbox/v1/checkout-sessions/0b7d3c52-6a1e-4c0f-9d3e-2f4f1e6c9a10", "checkout-service"));
  }

  @Nested
  class LivePaths {

    @ParameterizedTest
    @MethodSource("dev.lipa.gateway.EnvironmentIntegrationTests#families")
    void reachTheLiveStacksServiceWithALiveKeyAndThePathUnchanged(Call call) {
      TestHttp.Response response = send(call.method(), call.livePath(), liveToken());

      assertThat(response.status()).isEqualTo(200);
      JsonNode echo = response.json();
      assertThat(echo.get("service").stringValue()).isEqualTo(call.service() + "-live");
      assertThat(echo.get("path").stringValue()).isEqualTo(withoutQuery(call.livePath()));
    }

    @ParameterizedTest
    @MethodSource("dev.lipa.gateway.EnvironmentIntegrationTests#families")
    void sandboxPathsStillReachTheSandboxStack(Call call) {
      TestHttp.Response response = send(call.method(), call.sandboxPath(), validToken());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("service").stringValue()).isEqualTo(call.service());
    }

    @Test
    void theLiveHostedCheckoutPagesGoToTheLiveCheckoutServiceAsItsOwnPagePaths() {
      TestHttp.Response live = http().get("/live/checkout/cs_123?lang=sw", Map.of());
      TestHttp.Response sandbox = http().get("/checkout/cs_123", Map.of());

      assertThat(live.status()).isEqualTo(200);
      assertThat(live.json().get("service").stringValue()).isEqualTo("checkout-service-live");
      assertThat(live.json().get("path").stringValue()).isEqualTo("/checkout/cs_123");
      assertThat(live.json().get("query").stringValue()).isEqualTo("lang=sw");
      assertThat(sandbox.json().get("service").stringValue()).isEqualTo("checkout-service");
    }

    @Test
    void theBanksNotificationsStayWithTheSandboxStack() {
      TestHttp.Response live = http().postJson("/api/v1/banks/kcb/notifications", "{}", Map.of());

      assertThat(live.json().get("service").stringValue()).isEqualTo("collections-service");
    }
  }

  @Nested
  class OperatorApiOfTheLiveStack {

    static Stream<Arguments> operatorPaths() {
      return Stream.of(
          Arguments.of("/admin/live/v1/dead-letters/collections-service", "collections-service-live",
              "/admin/v1/dead-letters"),
          Arguments.of("/admin/live/v1/dead-letters/payouts-service/4f1c/replay", "payouts-service-live",
              "/admin/v1/dead-letters/4f1c/replay"),
          Arguments.of("/admin/live/v1/audit/checkout-service", "checkout-service-live", "/admin/v1/audit"),
          Arguments.of("/admin/live/v1/audit/callback-dispatcher", "callback-dispatcher-live", "/admin/v1/audit"),
          Arguments.of("/admin/live/v1/callbacks/dead", "callback-dispatcher-live", "/admin/v1/callbacks/dead"),
          // the Daraja rails' own operator API, which only a live stack has
          Arguments.of("/admin/live/v1/daraja/stk-shortcodes/600100", "collections-service-live",
              "/admin/v1/daraja/stk-shortcodes/600100"),
          Arguments.of("/admin/live/v1/daraja/stk-shortcodes", "collections-service-live",
              "/admin/v1/daraja/stk-shortcodes"),
          Arguments.of("/admin/live/v1/daraja/stk-pushes/unresolved", "collections-service-live",
              "/admin/v1/daraja/stk-pushes/unresolved"),
          Arguments.of("/admin/live/v1/daraja/payout-shortcodes/600200", "payouts-service-live",
              "/admin/v1/daraja/payout-shortcodes/600200"),
          Arguments.of("/admin/live/v1/daraja/balance-reconciliations", "payouts-service-live",
              "/admin/v1/daraja/balance-reconciliations"));
    }

    @ParameterizedTest
    @MethodSource("operatorPaths")
    void isTheLiveServicesOwnOperatorApi(String path, String service, String servicePath) {
      TestHttp.Response response = http().postJson(path + "?limit=5", "{}", operator());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("service").stringValue()).isEqualTo(service);
      assertThat(response.json().get("path").stringValue()).isEqualTo(servicePath);
      assertThat(response.json().get("query").stringValue()).isEqualTo("limit=5");
    }

    @ParameterizedTest
    @MethodSource("operatorPaths")
    void wantsTheOperatorTokenAtTheGateway(String path, String service, String servicePath) {
      int before = UPSTREAMS.totalCalls();

      for (Map<String, String> credentials : List.of(Map.<String, String>of(), TestHttp.bearer(liveToken()),
          Map.of("X-Operator-Token", OPERATOR_TOKEN + "x"))) {
        TestHttp.Response response = http().postJson(path, "{}", credentials);

        assertThat(response.status()).isEqualTo(401);
      }
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/admin/live", "/admin/live/v1/organisations", "/admin/live/v1/audit",
        "/admin/live/v1/audit/auth-service", "/admin/live/v1/dead-letters/auth-service", "/admin/live/v2/x"})
    void hasNothingElseAndNeverFallsThroughToAuthService(String path) {
      int before = UPSTREAMS.totalCalls();

      TestHttp.Response response = http().postJson(path, "{}", operator());

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.body()).isEqualTo(RoutingIntegrationTests.NOT_FOUND);
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }
  }

  /** Safaricom Daraja's callbacks and results: the live stack's, with no token, from the address the gateway saw. */
  @Nested
  class DarajaCallbacks {

    static Stream<Arguments> callbacks() {
      return Stream.of(
          Arguments.of("/daraja/v1/stk/c2VnbWVudA/0b7d3c52-6a1e-4c0f-9d3e-2f4f1e6c9a10", "collections-service-live"),
          Arguments.of("/daraja/v1/results/c2VnbWVudA", "payouts-service-live"),
          Arguments.of("/daraja/v1/timeouts/c2VnbWVudA", "payouts-service-live"));
    }

    @ParameterizedTest
    @MethodSource("callbacks")
    void reachTheLiveStacksRailWithoutATokenAndThePathUnchanged(String path, String service) {
      TestHttp.Response response = http().postJson(path, "{\"Body\":{}}", Map.of());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("service").stringValue()).isEqualTo(service);
      assertThat(response.json().get("path").stringValue()).isEqualTo(path);
    }

    @ParameterizedTest
    @MethodSource("callbacks")
    void carryTheAddressTheGatewaySawNeverTheOneAClientClaims(String path, String service) {
      // the services accept a callback only from Safaricom's addresses, read from X-Forwarded-For: a client that
      // names one of them itself must not be believed (this gateway trusts no proxy in front of it)
      TestHttp.Response response = http().postJson(path, "{}", Map.of("X-Forwarded-For", "196.201.214.200",
          "X-Real-IP", "196.201.214.200", "Forwarded", "for=196.201.214.200", "True-Client-IP", "196.201.214.200",
          "X-Client-IP", "196.201.214.200"));

      JsonNode headers = response.json().get("headers");
      assertThat(headers.get("x-forwarded-for").get(0).stringValue()).isEqualTo("127.0.0.1");
      assertThat(headers.toString()).doesNotContain("196.201.214.200");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/daraja/v1/stk/../results/x", "/daraja/v1//results/x", "/daraja/v1/%72esults/x",
        "/daraja/v1/stk/x;y", "/daraja%2Fv1/results/x"})
    void otherSpellingsAreRefusedBeforeRouting(String path) {
      int before = UPSTREAMS.totalCalls();

      RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "POST", path, Map.of("Content-Type",
          "application/json"), "{}");

      assertThat(answer.status()).as("POST %s", path).isEqualTo(400);
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/daraja/v1/other/x", "/daraja/v2/results/x", "/Daraja/v1/results/x",
        "/api/v1/daraja/v1/results/x", "/admin/v1/daraja/stk-shortcodes", "/admin/v1/daraja/payout-shortcodes/1"})
    void nothingElseReachesTheRailsNorTheSandboxStack(String path) {
      TestHttp.Response response = http().postJson(path, "{}", operator());

      // /admin/v1/... is auth-service's operator API (which has no such path): never a collections or payouts service
      if (response.status() == 200) {
        assertThat(response.json().get("service").stringValue()).isEqualTo("auth-service");
      } else {
        assertThat(response.status()).isIn(401, 404);
      }
    }
  }

  @Nested
  class KeyOfTheOtherEnvironment {

    @ParameterizedTest
    @MethodSource("dev.lipa.gateway.EnvironmentIntegrationTests#families")
    void aSandboxKeyOnALivePathIs403AndReachesNothing(Call call) {
      int before = UPSTREAMS.totalCalls();

      TestHttp.Response response = send(call.method(), call.livePath(), validToken());

      assertThat(response.status()).isEqualTo(403);
      assertThat(response.body()).isEqualTo(shaped(call, SANDBOX_KEY));
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @ParameterizedTest
    @MethodSource("dev.lipa.gateway.EnvironmentIntegrationTests#families")
    void aLiveKeyOnASandboxPathIs403AndReachesNothing(Call call) {
      int before = UPSTREAMS.totalCalls();

      TestHttp.Response response = send(call.method(), call.sandboxPath(), liveToken());

      assertThat(response.status()).isEqualTo(403);
      assertThat(response.body()).isEqualTo(shaped(call, LIVE_KEY));
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @Test
    void aTokenWithoutTheEnvironmentClaimIsASandboxToken() {
      String old = ISSUER.token(UUID.randomUUID().toString(), claims -> { });

      assertThat(send("GET", "/api/v1/balance", old).body()).isEqualTo(SANDBOX_KEY);
      assertThat(send("GET", "/api/sandbox/v1/balance", old).status()).isEqualTo(200);
    }

    @Test
    void refusalsSpendNothingOfTheOrganisationsRequestLimit() {
      // one request a second (burst of two): had the refusals counted, the last call would be 429
      String token = ISSUER.token(UUID.randomUUID().toString(), claims -> claims
          .claim(TokenClaims.ENVIRONMENT, Environment.LIVE.claim()).claim(TokenClaims.REQUESTS_PER_SECOND, 1));
      for (int i = 0; i < 6; i++) {
        assertThat(send("GET", "/api/sandbox/v1/stk/all", token).status()).isEqualTo(403);
      }

      assertThat(send("GET", "/api/v1/stk/all", token).status()).isEqualTo(200);
    }

    @Test
    void areCountedByRouteAndTheKeysEnvironment() {
      double before = refusals("collections-live", "sandbox");

      send("POST", "/api/v1/stk/new", validToken());

      assertThat(refusals("collections-live", "sandbox")).isEqualTo(before + 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/stk/new/", "/api/v1/stk", "/api/v1/checkout-sessions/"})
    void aTrailingSlashOrABarePrefixIsStillTheLivePath(String path) {
      int before = UPSTREAMS.totalCalls();

      RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "GET", path, bearer(validToken()), null);

      assertThat(answer.status()).isEqualTo(403);
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @Test
    void aLiveKeyOnASandboxPathWithATrailingSlashIsRefusedToo() {
      RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "GET", "/api/sandbox/v1/stk/all/", bearer(liveToken()),
          null);

      assertThat(answer.status()).isEqualTo(403);
      assertThat(answer.body()).isEqualTo(LIVE_KEY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api//v1/stk/new", "/api/%73andbox/v1/stk/new", "/api/sandbox/../v1/stk/new",
        "/api/sandbox/./v1/stk/new", "/api/v1/stk/new;sandbox", "/api/sandbox;x=1/v1/stk/new", "/api/v1/%73tk/new",
        "/api%2Fsandbox/v1/stk/new", "/api\\sandbox/v1/stk/new"})
    void otherSpellingsOfEitherPathAreRefusedBeforeRoutingWithEitherKey(String path) {
      int before = UPSTREAMS.totalCalls();

      for (String token : List.of(validToken(), liveToken())) {
        RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "GET", path, bearer(token), null);

        assertThat(answer.status()).as("GET %s", path).isEqualTo(400);
      }
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/V1/stk/new", "/API/v1/stk/new", "/api/v1/STK/new", "/api/Sandbox/v1/stk/new",
        "/api/live/v1/stk/new", "/api/v1/sandbox/stk/new"})
    void otherCasesAndLookAlikesAreNoRoute(String path) {
      int before = UPSTREAMS.totalCalls();

      for (String token : List.of(validToken(), liveToken())) {
        RawHttp.Answer answer = RawHttp.send("127.0.0.1", port, "GET", path, bearer(token), null);

        assertThat(answer.status()).as("GET %s", path).isEqualTo(404);
      }
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @Test
    void aForgedEnvironmentClaimIsABadTokenNotAWrongEnvironment() {
      int before = UPSTREAMS.totalCalls();
      String forged = withClaim(validToken(), TokenClaims.ENVIRONMENT, "live");

      TestHttp.Response onLive = send("POST", "/api/v1/stk/new", forged);
      TestHttp.Response onEnvironmentless = send("GET", "/api/v1/tz/collections/single?requestId=r1", forged);

      assertThat(onLive.status()).isEqualTo(401);
      assertThat(onEnvironmentless.status()).isEqualTo(401);
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @Test
    void anUnknownEnvironmentInAGenuineTokenIsRefusedAsABadToken() {
      String odd = ISSUER.token(UUID.randomUUID().toString(), claims -> claims.claim(TokenClaims.ENVIRONMENT, "prod"));

      assertThat(send("POST", "/api/v1/stk/new", odd).status()).isEqualTo(401);
      assertThat(send("POST", "/api/sandbox/v1/stk/new", odd).status()).isEqualTo(401);
    }
  }

  @Nested
  class PathsWithoutAnEnvironment {

    static Stream<Arguments> paths() {
      return Stream.of(
          Arguments.of("GET", "/api/v1/tz/collections/single?requestId=r1", "collections-service"),
          Arguments.of("GET", "/api/v1/tz/spending/single?requestId=r1", "payouts-service"));
    }

    @ParameterizedTest
    @MethodSource("paths")
    void goToTheStackOfTheTokensEnvironment(String method, String path, String service) {
      assertThat(send(method, path, liveToken()).json().get("service").stringValue()).isEqualTo(service + "-live");
      assertThat(send(method, path, validToken()).json().get("service").stringValue()).isEqualTo(service);
    }

    @Test
    void theCallbacksOfALiveKeyAreTheLiveDispatchers() {
      TestHttp.Response response = send("GET", "/api/v1/callbacks", liveToken());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("service").stringValue()).isEqualTo("callback-dispatcher-live");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Bearer not-a-token"})
    void withoutAValidTokenAre401AndReachNothing(String authorization) {
      int before = UPSTREAMS.totalCalls();
      Map<String, String> headers = new HashMap<>(Map.of("Device-Id", "d1"));
      if (!authorization.isEmpty()) {
        headers.put("Authorization", authorization);
      }

      TestHttp.Response response = http().get("/api/v1/tz/collections/single?requestId=r1", headers);

      assertThat(response.status()).isEqualTo(401);
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }

    @Test
    void theTokenEndpointsStayAuthServicesWhateverTheToken() {
      TestHttp.Response response = http().postJson("/api/v1/refresh-token", "{}", TestHttp.bearer(liveToken()));

      assertThat(response.json().get("service").stringValue()).isEqualTo("auth-service");
    }
  }

  private TestHttp.Response send(String method, String path, String token) {
    Map<String, String> headers = new HashMap<>(TestHttp.bearer(token));
    headers.put("Device-Id", "device-1");
    String body = null;
    if (method.equals("POST")) {
      headers.put("Content-Type", "application/json");
      body = "{\"amount\":10}";
    }
    return http().send(method, path, body, headers);
  }

  private double refusals(String route, String environment) {
    Counter counter = meters.find(WrongEnvironmentFilter.REFUSALS).tag("route", route)
        .tag("environment", environment).counter();
    return counter == null ? 0 : counter.count();
  }

  /** Raw requests without a body: a refusal that answers before reading a body may reset the connection. */
  private static Map<String, String> bearer(String token) {
    return TestHttp.bearer(token);
  }

  /** The checkout error body on checkout-session paths, the envelope elsewhere. */
  private static String shaped(Call call, String envelope) {
    if (!call.sandboxPath().contains("checkout-sessions")) {
      return envelope;
    }
    JsonNode tree = JsonMapper.builder().build().readTree(envelope);
    return "{\"message\":\"" + tree.get("message").stringValue() + "\",\"errors\":{}}";
  }

  private static String withoutQuery(String path) {
    return path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
  }

  /** A genuine token whose payload got one more claim, its signature kept (so it no longer matches). */
  private static String withClaim(String token, String claim, String value) {
    String[] parts = token.split("\\.");
    JsonMapper json = JsonMapper.builder().build();
    ObjectNode payload = (ObjectNode) json.readTree(Base64.getUrlDecoder().decode(parts[1]));
    payload.put(claim, value);
    String edited = Base64.getUrlEncoder().withoutPadding().encodeToString(
        json.writeValueAsString(payload).getBytes(StandardCharsets.UTF_8));
    return parts[0] + "." + edited + "." + parts[2];
  }

  private static Arguments family(String method, String sandboxPath, String service) {
    return Arguments.of(Named.of(method + " " + sandboxPath, new Call(method, sandboxPath, service)));
  }
}
