package dev.lipa.gateway.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.gateway.GatewayIntegrationTest;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The edge of a trace: every request through the gateway starts a trace of its own, whatever the client sent, its id
 * comes back in {@code X-Trace-Id}, and the service behind the gateway receives the gateway's {@code traceparent}.
 */
class EdgeTracingIntegrationTests extends GatewayIntegrationTest {

  private static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CLIENT_TRACEPARENT = "00-" + CLIENT_TRACE + "-00f067aa0ba902b7-01";

  @Test
  void aRoutedRequestReturnsItsTraceIdAndTheServiceContinuesThatTrace() {
    TestHttp.Response response = http().get("/api/sandbox/v1/stk/all", authorized());

    assertThat(response.status()).isEqualTo(200);
    String traceId = traceId(response);
    assertThat(traceId).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
    String upstream = upstreamHeader(response, "traceparent");
    assertThat(upstream).matches("00-" + traceId + "-[0-9a-f]{16}-[0-9a-f]{2}");
  }

  @Test
  void aClientsTraceContextIsNotAdoptedNorPassedOn() {
    Map<String, String> headers = new HashMap<>(authorized());
    headers.put("traceparent", CLIENT_TRACEPARENT);
    headers.put("tracestate", "vendor=forced");
    headers.put("baggage", "organisation=someone-else");

    TestHttp.Response response = http().get("/api/sandbox/v1/stk/all", headers);

    assertThat(response.status()).isEqualTo(200);
    assertThat(traceId(response)).isNotEqualTo(CLIENT_TRACE);
    assertThat(upstreamHeader(response, "traceparent")).doesNotContain(CLIENT_TRACE)
        .startsWith("00-" + traceId(response) + "-");
    JsonNode upstreamHeaders = response.json().get("headers");
    assertThat(upstreamHeaders.has("tracestate")).isFalse();
    assertThat(upstreamHeaders.has("baggage")).isFalse();
  }

  @Test
  void anUpperCaseOrRepeatedClientTraceparentIsDroppedToo() {
    Map<String, String> headers = new HashMap<>(authorized());
    headers.put("TRACEPARENT", CLIENT_TRACEPARENT);

    TestHttp.Response response = http().get("/api/sandbox/v1/stk/all", headers);

    assertThat(response.json().get("headers").get("traceparent")).hasSize(1);
    assertThat(upstreamHeader(response, "traceparent")).doesNotContain(CLIENT_TRACE);
  }

  @Test
  void everyRequestIsATraceOfItsOwn() {
    String first = traceId(http().get("/api/sandbox/v1/stk/all", authorized()));
    String second = traceId(http().get("/api/sandbox/v1/stk/all", authorized()));

    assertThat(first).isNotEqualTo(second);
  }

  @Test
  void theGatewaysOwnAnswersCarryTheTraceIdToo() {
    TestHttp.Response notFound = http().get("/api/sandbox/v1/unknown", Map.of());
    TestHttp.Response unauthorized = http().get("/api/sandbox/v1/stk/all", Map.of("traceparent", CLIENT_TRACEPARENT));

    assertThat(notFound.status()).isEqualTo(404);
    assertThat(traceId(notFound)).matches("[0-9a-f]{32}");
    assertThat(unauthorized.status()).isEqualTo(401);
    assertThat(traceId(unauthorized)).matches("[0-9a-f]{32}").isNotEqualTo(CLIENT_TRACE);
  }

  private static String traceId(TestHttp.Response response) {
    return response.headers().firstValue(TraceIdWebFilter.HEADER).orElseThrow(
        () -> new AssertionError("no " + TraceIdWebFilter.HEADER + " on a " + response.status()));
  }

  private static String upstreamHeader(TestHttp.Response response, String name) {
    JsonNode values = response.json().get("headers").get(name);
    assertThat(values).as("the upstream's %s header", name).isNotNull();
    return values.get(0).stringValue();
  }
}
