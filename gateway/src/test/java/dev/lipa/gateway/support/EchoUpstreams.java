package dev.lipa.gateway.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.lipa.common.testsupport.TestHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stand-ins for the platform's services: one real local HTTP server per service that answers every request with a
 * JSON echo of what reached it (service, method, path, query, headers, body). A request carrying
 * {@code X-Test-Delay-Millis} is answered only after that delay. {@link #deadUri()} is a port nobody listens on.
 * The live stack's services are here too, as {@code <service>-live}.
 */
public final class EchoUpstreams {

  public static final String DELAY_HEADER = "X-Test-Delay-Millis";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static EchoUpstreams shared;

  private final Map<String, HttpServer> servers = new LinkedHashMap<>();
  private final Map<String, AtomicInteger> calls = new LinkedHashMap<>();
  private final String deadUri;

  private EchoUpstreams(List<String> services) {
    for (String service : services) {
      calls.put(service, new AtomicInteger());
      servers.put(service, start(service));
    }
    deadUri = "http://127.0.0.1:" + freePort();
  }

  /** The one set of upstreams of this test JVM. */
  public static synchronized EchoUpstreams shared() {
    if (shared == null) {
      shared = new EchoUpstreams(List.of("auth-service", "checkout-service", "collections-service",
          "payouts-service", "checkout-service-live", "collections-service-live", "payouts-service-live",
          "callback-dispatcher-live"));
    }
    return shared;
  }

  public String uri(String service) {
    return "http://127.0.0.1:" + servers.get(service).getAddress().getPort();
  }

  public String deadUri() {
    return deadUri;
  }

  /** How many requests reached the service so far. */
  public int calls(String service) {
    return calls.get(service).get();
  }

  public int totalCalls() {
    return calls.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  private HttpServer start(String service) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
      server.createContext("/", exchange -> echo(service, exchange));
      server.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void echo(String service, HttpExchange exchange) throws IOException {
    calls.get(service).incrementAndGet();
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String delay = exchange.getRequestHeaders().getFirst(DELAY_HEADER);
      if (delay != null) {
        Thread.sleep(Long.parseLong(delay));
      }
      Map<String, List<String>> headers = new TreeMap<>();
      exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values));
      Map<String, Object> echo = new LinkedHashMap<>();
      echo.put("service", service);
      echo.put("method", exchange.getRequestMethod());
      echo.put("path", exchange.getRequestURI().getRawPath());
      echo.put("query", exchange.getRequestURI().getRawQuery());
      echo.put("headers", headers);
      echo.put("body", new String(body, StandardCharsets.UTF_8));
      byte[] answer = JSON.writeValueAsBytes(echo);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.getResponseHeaders().add(TestHttp.STUB_HEADER, "echo");
      // like the services' own correlation filter: the id comes back on the response
      String correlationId = exchange.getRequestHeaders().getFirst("X-Correlation-Id");
      if (correlationId != null) {
        exchange.getResponseHeaders().add("X-Correlation-Id", correlationId);
      }
      exchange.sendResponseHeaders(200, answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
