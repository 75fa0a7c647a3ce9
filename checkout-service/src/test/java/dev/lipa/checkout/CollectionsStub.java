package dev.lipa.checkout;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real local HTTP server standing in for collections-service's internal STK endpoint (and for the merchant's
 * success and cancel pages in browser tests). Numbers ending in 000 are refused with a field error, numbers ending in
 * 429 as a number that has had its prompts (collections' per-number limit).
 */
public final class CollectionsStub {

  public static final String TOKEN = "test-internal-token";
  public static final String REFUSED_PHONE = "0712000000";
  /** A number that has had its prompts: collections answers 429 (numbers ending in 429). */
  public static final String LIMITED_PHONE = "0712000429";
  public static final String LIMITED_MESSAGE =
      "Too many payment prompts were sent to this phone number; try again later";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static CollectionsStub shared;

  /** A request the stub accepted, with the requestId it answered and the trace context it carried. */
  public record Call(JsonNode body, String token, String requestId, String traceparent) {
  }

  private final HttpServer server;
  private final List<Call> calls = new CopyOnWriteArrayList<>();

  private CollectionsStub() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/internal/v1/stk-pushes", this::stk);
    server.createContext("/shop/", exchange -> respond(exchange, 200, "text/html",
        "<!DOCTYPE html><html><head><title>Shop</title></head><body><h1 id=\"shop\">"
            + exchange.getRequestURI().getPath() + "</h1></body></html>"));
    server.start();
  }

  public static synchronized CollectionsStub shared() {
    if (shared == null) {
      try {
        shared = new CollectionsStub();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
    return shared;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /** The accepted call whose referenceId belongs to this session. */
  public Call callFor(String sessionId) {
    return calls.stream().filter(c -> c.body().path("referenceId").asString("").contains(sessionId))
        .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no STK call for session " + sessionId));
  }

  private void stk(HttpExchange exchange) throws IOException {
    String token = exchange.getRequestHeaders().getFirst("X-Internal-Token");
    JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
    if (!TOKEN.equals(token)) {
      respond(exchange, 401, "application/json", "{\"status\":401,\"message\":\"invalid internal token\",\"data\":null}");
      return;
    }
    if (body.path("phoneNumber").asString("").endsWith("000")) {
      respond(exchange, 400, "application/json", "{\"status\":400,\"message\":\"Validation failed\",\"data\":null,"
          + "\"errors\":{\"phoneNumber\":[\"phoneNumber must be a Kenyan mobile number\"]}}");
      return;
    }
    if (body.path("phoneNumber").asString("").endsWith("429")) {
      exchange.getResponseHeaders().set("Retry-After", "20");
      respond(exchange, 429, "application/json", "{\"status\":429,\"message\":\"" + LIMITED_MESSAGE
          + "\",\"data\":null}");
      return;
    }
    String requestId = UUID.randomUUID().toString();
    calls.add(new Call(body, token, requestId, exchange.getRequestHeaders().getFirst("traceparent")));
    respond(exchange, 201, "application/json", "{\"status\":201,\"message\":\"STK push accepted for processing\","
        + "\"data\":{\"requestId\":\"" + requestId + "\",\"phoneNumber\":\"254712345678\",\"requestedAmount\":"
        + body.path("amount") + "}}");
  }

  private static void respond(HttpExchange exchange, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }
}
