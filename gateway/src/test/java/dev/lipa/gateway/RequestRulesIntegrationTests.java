package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;

class RequestRulesIntegrationTests extends GatewayIntegrationTest {

  static final String UNSUPPORTED =
      "{\"status\":415,\"message\":\"Content-Type must be application/json\",\"data\":null}";
  static final String MISSING_DEVICE_ID = "{\"status\":400,\"message\":\"Missing required header Device-Id\","
      + "\"data\":null,\"errors\":{\"Device-Id\":[\"Device-Id header is required\"]}}";
  static final String TOO_LARGE = "{\"status\":413,\"message\":\"Request body too large\",\"data\":null}";
  static final int MAX_BODY = 65536;

  @Autowired
  CircuitBreakerRegistry circuitBreakers;

  @Nested
  class ContentType {

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "application/x-www-form-urlencoded", "application/jsonp",
        "application/xml"})
    void refusesBodiesThatAreNotJson(String contentType) {
      TestHttp.Response response = http().send("POST", "/api/sandbox/v1/stk/new", "{\"amount\":1}",
          authorized("Content-Type", contentType));

      assertThat(response.status()).isEqualTo(415);
      assertThat(response.body()).isEqualTo(UNSUPPORTED);
    }

    @Test
    void refusesABodyWithoutContentType() {
      TestHttp.Response response = http().send("POST", "/api/sandbox/v1/till", "{\"amount\":1}", authorized());

      assertThat(response.status()).isEqualTo(415);
      assertThat(response.body()).isEqualTo(UNSUPPORTED);
    }

    @Test
    void refusesNonJsonOnTheTokenEndpointToo() {
      TestHttp.Response response = http().send("POST", "/api/v1/get-token", "apiKey=k&apiSecret=s",
          Map.of("Content-Type", "application/x-www-form-urlencoded"));

      assertThat(response.status()).isEqualTo(415);
      assertThat(response.body()).isEqualTo(UNSUPPORTED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "application/json; charset=UTF-8", "Application/JSON;charset=utf-8"})
    void acceptsJsonWithOrWithoutCharset(String contentType) {
      TestHttp.Response response = http().send("POST", "/api/sandbox/v1/stk/new", "{\"amount\":1}",
          authorized("Content-Type", contentType));

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().at("/headers/content-type/0").stringValue()).isEqualTo(contentType);
    }

    @Test
    void acceptsGetWithoutContentType() {
      assertThat(http().get("/api/sandbox/v1/stk/all", authorized()).status()).isEqualTo(200);
    }

    @Test
    void acceptsFormPostsOnTheHostedCheckoutPage() {
      TestHttp.Response response = http().send("POST", "/checkout/cs_1/pay", "method=CARD",
          Map.of("Content-Type", "application/x-www-form-urlencoded"));

      assertThat(response.status()).isEqualTo(200);
    }
  }

  @Nested
  class DeviceId {

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/tz/collections/single?requestId=r1", "/api/v1/tz/spending/single?requestId=r1"})
    void isRequiredOnTanzaniaLookups(String path) {
      TestHttp.Response response = http().get(path, authorized());

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.body()).isEqualTo(MISSING_DEVICE_ID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/tz/collections/single?requestId=r1", "/api/v1/tz/spending/single?requestId=r1"})
    void mustNotBeBlank(String path) {
      TestHttp.Response response = http().get(path, authorized("Device-Id", "   "));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.body()).isEqualTo(MISSING_DEVICE_ID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/tz/collections/single?requestId=r1", "/api/v1/tz/spending/single?requestId=r1"})
    void isForwardedWhenPresent(String path) {
      TestHttp.Response response = http().get(path, authorized("Device-Id", "device-7"));

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().at("/headers/device-id/0").stringValue()).isEqualTo("device-7");
    }

    @Test
    void isCheckedOnlyAfterTheToken() {
      TestHttp.Response response = http().get("/api/v1/tz/spending/single?requestId=r1", Map.of());

      assertThat(response.status()).isEqualTo(401);
    }

    @Test
    void isNotRequiredElsewhere() {
      assertThat(http().get("/api/sandbox/v1/paybill/all", authorized()).status()).isEqualTo(200);
    }
  }

  @Nested
  class BodySize {

    @Test
    void refusesADeclaredContentLengthOverTheCap() {
      int before = UPSTREAMS.calls("collections-service");

      TestHttp.Response response = http().postJson("/api/sandbox/v1/stk/new", jsonOfSize(MAX_BODY + 1),
          authorized());

      assertThat(response.status()).isEqualTo(413);
      assertThat(response.body()).isEqualTo(TOO_LARGE);
      assertThat(UPSTREAMS.calls("collections-service")).isEqualTo(before);
    }

    @Test
    void acceptsABodyOfExactlyTheCap() {
      String body = jsonOfSize(MAX_BODY);

      TestHttp.Response response = http().postJson("/api/sandbox/v1/stk/new", body, authorized());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("body").stringValue()).hasSize(MAX_BODY);
    }

    @Test
    void refusesAChunkedBodyThatGrowsOverTheCapWhileStreaming() throws IOException {
      CircuitBreaker breaker = circuitBreakers.circuitBreaker("collections-service");
      long failuresBefore = breaker.getMetrics().getNumberOfFailedCalls();

      String response = rawChunkedPost("/api/sandbox/v1/stk/new", MAX_BODY + 16 * 1024);

      assertThat(response).startsWith("HTTP/1.1 413");
      assertThat(response).endsWith(TOO_LARGE);
      assertThat(breaker.getMetrics().getNumberOfFailedCalls())
          .as("a client's oversized body is not the service's failure").isEqualTo(failuresBefore);
    }

    @Test
    void proxiesASmallChunkedBody() throws Exception {
      String body = jsonOfSize(4000);
      HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + "/api/sandbox/v1/stk/new"))
          .header("Authorization", "Bearer " + validToken())
          .header("Content-Type", "application/json")
          // a publisher of unknown length makes the client send Transfer-Encoding: chunked
          .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofString(body)))
          .build();

      HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).contains("\"body\":\"" + body.replace("\"", "\\\"") + "\"");
    }

    @Test
    void checksContentTypeBeforeSize() {
      TestHttp.Response response = http().send("POST", "/api/sandbox/v1/stk/new", "x".repeat(MAX_BODY + 10),
          authorized("Content-Type", "text/plain"));

      assertThat(response.status()).isEqualTo(415);
    }
  }

  /** A JSON document of exactly {@code size} bytes. */
  static String jsonOfSize(int size) {
    String prefix = "{\"pad\":\"";
    String suffix = "\"}";
    return prefix + "a".repeat(size - prefix.length() - suffix.length()) + suffix;
  }

  /** Sends a chunked POST over a plain socket and returns the whole answer (status line, headers and body). */
  private String rawChunkedPost(String path, int bodyBytes) throws IOException {
    try (Socket socket = new Socket("localhost", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      String head = "POST " + path + " HTTP/1.1\r\n"
          + "Host: localhost:" + port + "\r\n"
          + "Authorization: Bearer " + validToken() + "\r\n"
          + "Content-Type: application/json\r\n"
          + "Transfer-Encoding: chunked\r\n"
          + "Connection: close\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      byte[] chunk = "a".repeat(4096).getBytes(StandardCharsets.US_ASCII);
      try {
        for (int sent = 0; sent < bodyBytes; sent += chunk.length) {
          out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
          out.write(chunk);
          out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      } catch (IOException e) {
        // the gateway may stop reading once it has refused the body; its answer is still there to read
      }
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) > 0; ) {
          answer.write(buffer, 0, n);
        }
      } catch (IOException e) {
        // a reset after the answer arrived
      }
      return answer.toString(StandardCharsets.UTF_8);
    }
  }
}
