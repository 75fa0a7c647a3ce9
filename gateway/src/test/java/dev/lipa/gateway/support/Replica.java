package dev.lipa.gateway.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.lipa.common.testsupport.TestHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * One replica of a service for the load-balancing tests: a real local HTTP server on a fixed port that answers its
 * readiness ({@code /actuator/health/readiness}) UP or DOWN as told, and every other request with its own name, or
 * (when told to drop) reads the request and closes the connection without an answer, as a replica that dies
 * mid-request does. It records the body of every request that reached it; it can be stopped (connections refused)
 * and started again on the same port.
 */
public final class Replica {

  private final String name;
  private final int port;
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  private final List<Long> arrivals = new CopyOnWriteArrayList<>();
  private volatile boolean ready = true;
  private volatile boolean drop;
  private HttpServer server;

  public Replica(String name) {
    this.name = name;
    this.server = bind(0);
    this.port = server.getAddress().getPort();
  }

  public String uri() {
    return "http://127.0.0.1:" + port;
  }

  /** The bodies of the requests (not health checks) that reached this replica, in order. */
  public List<String> bodies() {
    return List.copyOf(bodies);
  }

  public int requests() {
    return bodies.size();
  }

  /** When each request (not health check) reached this replica, as {@link System#nanoTime()}, in order. */
  public List<Long> arrivals() {
    return List.copyOf(arrivals);
  }

  public void ready(boolean ready) {
    this.ready = ready;
  }

  public void dropRequests(boolean drop) {
    this.drop = drop;
  }

  /** Stops listening: a connection to the port is refused. */
  public synchronized void stop() {
    server.stop(0);
  }

  /**
   * Stops as a service's graceful shutdown does: no new connection is accepted, the requests in flight get their
   * answers (for at most {@code grace}), then every connection, idle keep-alive ones included, is closed.
   */
  public synchronized void stopGracefully(Duration grace) {
    server.stop((int) Math.max(1, grace.toSeconds()));
  }

  public synchronized void start() {
    server = bind(port);
  }

  private HttpServer bind(int onPort) {
    try {
      HttpServer created = HttpServer.create(new InetSocketAddress("127.0.0.1", onPort), 0);
      created.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
      created.createContext("/", this::handle);
      created.start();
      return created;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readAllBytes();
    }
    if (exchange.getRequestURI().getPath().equals("/actuator/health/readiness")) {
      answer(exchange, ready ? 200 : 503, ready ? "{\"status\":\"UP\"}" : "{\"status\":\"OUT_OF_SERVICE\"}");
      return;
    }
    arrivals.add(System.nanoTime());
    bodies.add(new String(body, StandardCharsets.UTF_8));
    if (drop) {
      // the request reached the service (it may have acted on it); the answer never comes back
      exchange.close();
      return;
    }
    answer(exchange, 200, "{\"replica\":\"" + name + "\"}");
  }

  private static void answer(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.getResponseHeaders().add(TestHttp.STUB_HEADER, "replica");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
