package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.testsupport.PathRuleChecks;
import dev.lipa.common.testsupport.PathRuleChecks.Protected;
import dev.lipa.common.testsupport.TestHttp;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The single-record lookups ({@code GET .../single?requestId=|referenceId=}) and the lists' {@code cursor} through the
 * public gateway: each reaches its owning service with its query intact, only with a token, and no other spelling of
 * the paths is routed.
 */
class LookupRoutesIntegrationTests extends GatewayIntegrationTest {

  static final List<String> LOOKUPS = List.of("/api/sandbox/v1/stk/single", "/api/sandbox/v1/send-money/single",
      "/api/sandbox/v1/till/single", "/api/sandbox/v1/paybill/single");

  static Stream<Arguments> lookups() {
    String query = "requestId=0b7d3c52-6a1e-4c0f-9d3e-2f4f1e6c9a10";
    String reference = "referenceId=INV%2042%2F%C3%A4%26x%3D1";
    return Stream.of(
        Arguments.of(named("STK push by requestId", "/api/sandbox/v1/stk/single?" + query), "collections-service"),
        Arguments.of(named("STK push by referenceId", "/api/sandbox/v1/stk/single?" + reference),
            "collections-service"),
        Arguments.of(named("send money by requestId", "/api/sandbox/v1/send-money/single?" + query),
            "payouts-service"),
        Arguments.of(named("till by referenceId", "/api/sandbox/v1/till/single?" + reference), "payouts-service"),
        Arguments.of(named("paybill by requestId", "/api/sandbox/v1/paybill/single?" + query), "payouts-service"),
        Arguments.of(named("STK list from a cursor", "/api/sandbox/v1/stk/all?size=2&cursor=YzEKc3Rr.AbC-_d"),
            "collections-service"),
        Arguments.of(named("till list from a cursor", "/api/sandbox/v1/till/all?companyId=c1&cursor=YzEK.Ab-_"),
            "payouts-service"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lookups")
  void reachesTheOwningServiceWithTheQueryAsSent(String pathAndQuery, String service) {
    TestHttp.Response response = http().get(pathAndQuery, authorized());

    assertThat(response.status()).as(response.body()).isEqualTo(200);
    JsonNode echo = response.json();
    assertThat(echo.get("service").stringValue()).isEqualTo(service);
    assertThat(echo.get("path").stringValue()).isEqualTo(pathAndQuery.substring(0, pathAndQuery.indexOf('?')));
    assertThat(echo.get("query").stringValue()).isEqualTo(pathAndQuery.substring(pathAndQuery.indexOf('?') + 1));
  }

  @Test
  void wantsAValidTokenBeforeAnyServiceIsAsked() {
    int callsBefore = UPSTREAMS.totalCalls();

    for (String path : LOOKUPS) {
      TestHttp.Response none = http().get(path + "?referenceId=r1", Map.of());
      TestHttp.Response forged = http().get(path + "?referenceId=r1", TestHttp.bearer(validToken() + "x"));

      assertThat(none.status()).as(path).isEqualTo(401);
      assertThat(forged.status()).as(path).isEqualTo(401);
    }
    assertThat(UPSTREAMS.totalCalls()).as("requests that reached a service").isEqualTo(callsBefore);
  }

  @Test
  void refusesEveryOtherSpellingOfTheLookupPathsBeforeAnyServiceIsAsked() {
    Map<String, String> merchant = authorized();
    int callsBefore = UPSTREAMS.totalCalls();

    PathRuleChecks.assertEverySpellingRefused("127.0.0.1", port,
        LOOKUPS.stream().map(path -> new Protected("GET", path, merchant)).toList());

    assertThat(UPSTREAMS.totalCalls()).as("requests that reached a service").isEqualTo(callsBefore);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/api/sandbox/v1/STK/single", "/api/sandbox/v1/Send-Money/single",
      "/api/sandbox/v1/stksingle", "/api/sandbox/v1/single", "/api/sandbox/v1/tills/single"})
  void routesNoOtherCaseOrLookAlike(String path) {
    int callsBefore = UPSTREAMS.totalCalls();

    TestHttp.Response response = http().get(path + "?requestId=0b7d3c52-6a1e-4c0f-9d3e-2f4f1e6c9a10", authorized());

    assertThat(response.status()).isEqualTo(404);
    assertThat(UPSTREAMS.totalCalls()).isEqualTo(callsBefore);
  }
}
