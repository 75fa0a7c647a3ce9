package dev.lipa.common.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small HTTP client over real sockets for integration and system tests. Every answer it gets is checked against
 * the OpenAPI documents ({@link OpenApiContract}): an answer that breaks the contract fails the test, except one that
 * carries {@link #STUB_HEADER} (the answer of a test's own stand-in for a service, not of the platform).
 */
public final class TestHttp {

  /** Set by a test's stand-in upstream (e.g. the gateway tests' echo servers): its answers have no contract to meet. */
  public static final String STUB_HEADER = "X-Lipa-Test-Stub";

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String baseUrl;

  public TestHttp(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  /** An answer: status, headers and body, with the body parsed as JSON on demand. */
  public record Response(int status, java.net.http.HttpHeaders headers, String body) {

    public JsonNode json() {
      return JSON.readTree(body);
    }
  }

  public Response get(String path, Map<String, String> headers) {
    return send(request(path, headers).GET());
  }

  /** POSTs a JSON body (given as text, so tests can send malformed JSON too) with Content-Type application/json. */
  public Response postJson(String path, String body, Map<String, String> headers) {
    HttpRequest.Builder builder = request(path, headers).POST(HttpRequest.BodyPublishers.ofString(body));
    if (headers.keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
      builder.header("Content-Type", "application/json");
    }
    return send(builder);
  }

  public Response send(String method, String path, String body, Map<String, String> headers) {
    HttpRequest.BodyPublisher publisher = body == null
        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body);
    return send(request(path, headers).method(method, publisher));
  }

  /** Writes a value as JSON text. */
  public static String json(Object value) {
    return JSON.writeValueAsString(value);
  }

  public static Map<String, String> bearer(String token) {
    return Map.of("Authorization", "Bearer " + token);
  }

  private HttpRequest.Builder request(String path, Map<String, String> headers) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
    headers.forEach(builder::header);
    return builder;
  }

  private static Response send(HttpRequest.Builder builder) {
    try {
      HttpRequest request = builder.build();
      HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.headers().firstValue(STUB_HEADER).isEmpty()) {
        OpenApiContract.shared().check(request.method(), request.uri().getRawPath(), response.statusCode(),
            response.headers().map(), response.body());
      }
      return new Response(response.statusCode(), response.headers(), response.body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
