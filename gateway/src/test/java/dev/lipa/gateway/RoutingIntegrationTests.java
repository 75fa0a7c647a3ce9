package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class RoutingIntegrationTests extends GatewayIntegrationTest {

  static final String NOT_FOUND = "{\"status\":404,\"message\":\"Not found\",\"data\":null}";

  record Call(String method, String path, boolean token, String service) {
  }

  @Nested
  class SpecEndpoints {

    /** The spec's endpoint table (numbers as in the spec) and the gateway's own additions. */
    static Stream<Arguments> endpoints() {
      return Stream.of(
          endpoint("1 get token", "POST", "/api/v1/get-token", false, "auth-service"),
          endpoint("2 create checkout session", "POST", "/api/sandbox/v1/checkout-sessions", true,
              "checkout-service"),
          endpoint("3 retrieve checkout session", "GET",
              "/api/sandbox/v1/checkout-sessions/0b7d3c52-6a1e-4c0f-9d3e-2f4f1e6c9a10", true, "checkout-service"),
          endpoint("4 STK push", "POST", "/api/sandbox/v1/stk/new", true, "collections-service"),
          endpoint("5 STK list", "GET", "/api/sandbox/v1/stk/all", true, "collections-service"),
          endpoint("6 send money", "POST", "/api/sandbox/v1/send-money", true, "payouts-service"),
          endpoint("7 send money list", "GET", "/api/sandbox/v1/send-money/all?companyId=c1", true,
              "payouts-service"),
          endpoint("8 till", "POST", "/api/sandbox/v1/till", true, "payouts-service"),
          endpoint("9 till list", "GET", "/api/sandbox/v1/till/all?companyId=c1", true, "payouts-service"),
          endpoint("10 paybill", "POST", "/api/sandbox/v1/paybill", true, "payouts-service"),
          endpoint("11 paybill list", "GET", "/api/sandbox/v1/paybill/all", true, "payouts-service"),
          endpoint("12 paybill status", "GET", "/api/sandbox/v1/paybill/status?requestId=r1", true,
              "payouts-service"),
          endpoint("13 bank collection single", "GET", "/api/sandbox/v1/bank/collection/single?requestId=r1", true,
              "collections-service"),
          endpoint("14 bank collection list", "GET", "/api/sandbox/v1/bank/collection/all", true,
              "collections-service"),
          endpoint("15 de-allocations", "GET", "/api/sandbox/v1/de-allocations/org/all", true, "payouts-service"),
          endpoint("16 de-allocations for admins", "GET",
              "/api/sandbox/v1/de-allocations/org/all/admins?parentOrganisationId=p1", true, "payouts-service"),
          endpoint("17 TZ collection", "GET", "/api/v1/tz/collections/single?requestId=r1", true,
              "collections-service"),
          endpoint("18 TZ spending", "GET", "/api/v1/tz/spending/single?requestId=r1", true, "payouts-service"),
          endpoint("refresh token", "POST", "/api/v1/refresh-token", false, "auth-service"),
          endpoint("JWKS", "GET", "/.well-known/jwks.json", false, "auth-service"),
          endpoint("operator admin API", "POST", "/admin/organisations", false, "auth-service"),
          endpoint("hosted checkout page", "GET", "/checkout/cs_123", false, "checkout-service"),
          endpoint("balances", "GET", "/api/sandbox/v1/balance", true, "payouts-service"),
          endpoint("sandbox top-up", "POST", "/api/sandbox/v1/balance/top-up", true, "payouts-service"),
          endpoint("partner bank notification", "POST", "/api/v1/banks/kcb/notifications", false,
              "collections-service"));
    }

    @ParameterizedTest
    @MethodSource("endpoints")
    void reachesTheOwningServiceWithPathQueryMethodAndBodyIntact(Call call) {
      Map<String, String> headers = new HashMap<>();
      if (call.token()) {
        headers.putAll(TestHttp.bearer(validToken()));
      }
      if (call.path().startsWith("/admin")) {
        headers.putAll(operator());
      }
      headers.put("Device-Id", "device-1");
      String body = null;
      if (call.method().equals("POST")) {
        headers.put("Content-Type", "application/json");
        body = "{\"amount\":10}";
      }

      TestHttp.Response response = http().send(call.method(), call.path(), body, headers);

      assertThat(response.status()).isEqualTo(200);
      JsonNode echo = response.json();
      assertThat(echo.get("service").stringValue()).isEqualTo(call.service());
      assertThat(echo.get("method").stringValue()).isEqualTo(call.method());
      String path = call.path().contains("?") ? call.path().substring(0, call.path().indexOf('?')) : call.path();
      assertThat(echo.get("path").stringValue()).isEqualTo(path);
      if (call.path().contains("?")) {
        assertThat(echo.get("query").stringValue()).isEqualTo(call.path().substring(call.path().indexOf('?') + 1));
      }
      if (body != null) {
        assertThat(echo.get("body").stringValue()).isEqualTo(body);
      }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/get-token", "/.well-known/jwks.json", "/admin/organisations"})
    void letsAuthRoutesThroughWithoutABearerToken(String path) {
      // the operator API takes the operator's header instead (checked by the gateway and again by the service)
      Map<String, String> headers = path.startsWith("/admin") ? operator() : Map.of();
      TestHttp.Response response = path.equals("/.well-known/jwks.json")
          ? http().get(path, headers)
          : http().postJson(path, "{\"apiKey\":\"k\",\"apiSecret\":\"s\"}", headers);

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("service").stringValue()).isEqualTo("auth-service");
      assertThat(response.json().get("headers").has("authorization")).isFalse();
    }

    private static Arguments endpoint(String name, String method, String path, boolean token, String service) {
      return Arguments.of(Named.of(name + " (" + method + " " + path + ")", new Call(method, path, token, service)));
    }
  }

  @Nested
  class UnknownPaths {

    @ParameterizedTest
    @ValueSource(strings = {"/", "/api/sandbox/v1/unknown", "/api/v2/stk/new", "/api/sandbox/v1/stkx/all",
        "/docs/other.yaml", "/index.html"})
    void answer404EnvelopeEvenWithoutAToken(String path) {
      TestHttp.Response response = http().get(path, Map.of());

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.body()).isEqualTo(NOT_FOUND);
      assertThat(response.headers().firstValue("X-Correlation-Id")).isPresent();
    }

    @Test
    void answer404EnvelopeForPostsToo() {
      TestHttp.Response response = http().postJson("/api/sandbox/v1/nothing-here", "{}", authorized());

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.body()).isEqualTo(NOT_FOUND);
    }
  }

  @Nested
  class ContractDocuments {

    @ParameterizedTest
    @ValueSource(strings = {"openapi", "asyncapi"})
    void servesTheContractCopiedFromTheRepositoryDocsFolder(String contract) {
      TestHttp.Response response = http().get("/docs/" + contract + ".yaml", Map.of());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
          type -> assertThat(type).startsWith("application/yaml"));
      assertThat(response.body()).startsWith(contract + ":");
    }
  }
}
