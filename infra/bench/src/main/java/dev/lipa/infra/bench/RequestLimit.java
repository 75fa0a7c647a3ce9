package dev.lipa.infra.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sandbox organisation's own request limit, raised through the operator API for the run (the platform's default,
 * 50 requests a second, would cap every figure: the bench measures the platform, not the limiter) and put back as it
 * was afterwards. Tokens bought after the raise carry it; the gateway enforces what the token carries.
 */
final class RequestLimit implements AutoCloseable {

  /** High enough that no step of the bench reaches it. */
  static final int BENCH_REQUESTS_PER_SECOND = 100_000;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http;
  private final URI organisation;
  private final String operatorToken;
  private final JsonNode previous;

  private RequestLimit(HttpClient http, URI organisation, String operatorToken, JsonNode previous) {
    this.http = http;
    this.organisation = organisation;
    this.operatorToken = operatorToken;
    this.previous = previous;
  }

  /** Raises the organisation's limit; the operator token is read from {@code var/operator-token}. */
  static RequestLimit raise(HttpClient http, String gatewayUrl, String organisationId, Path var)
      throws IOException, InterruptedException {
    Path tokenFile = var.resolve("operator-token");
    if (!Files.isReadable(tokenFile)) {
      throw new IOException("no operator token at " + tokenFile);
    }
    String operatorToken = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
    URI organisation = URI.create(gatewayUrl + "/admin/v1/organisations/" + organisationId);
    JsonNode current = send(http, operatorToken, HttpRequest.newBuilder(organisation).GET());
    RequestLimit limit = new RequestLimit(http, organisation, operatorToken,
        current.path("data").path("requestsPerSecond"));
    limit.set(Integer.toString(BENCH_REQUESTS_PER_SECOND));
    return limit;
  }

  /** What the organisation had before the run: a number, or null for the platform's default. */
  String previous() {
    return previous.isNumber() ? previous.asString() : "the default";
  }

  private void set(String value) throws IOException, InterruptedException {
    send(http, operatorToken, HttpRequest.newBuilder(organisation)
        .header("Content-Type", "application/json")
        .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"requestsPerSecond\":" + value + "}")));
  }

  private static JsonNode send(HttpClient http, String operatorToken, HttpRequest.Builder request)
      throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(request.header("X-Operator-Token", operatorToken)
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("the operator API answered HTTP " + response.statusCode() + " " + response.body());
    }
    try {
      return JSON.readTree(response.body());
    } catch (JacksonException e) {
      // an answer that is not JSON is the operator API not being there, like a status other than 200
      throw new IOException("the operator API answered what is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** Puts the organisation's limit back as it was. */
  @Override
  public void close() {
    try {
      set(previous.isNumber() ? previous.asString() : "null");
    } catch (IOException e) {
      System.err.println("bench: could not put the organisation's request limit back (" + e.getMessage()
          + "); set it with PATCH /admin/v1/organisations/{id} {\"requestsPerSecond\": ...}");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
