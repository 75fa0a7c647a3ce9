package dev.lipa.dispatcher;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A merchant's callback endpoint on a real local socket: records every request and answers from a script per path
 * (each reply used once, the last one repeated). Unscripted paths answer 200.
 */
final class TestReceiver implements AutoCloseable {

  /** A request as the merchant saw it. */
  record Received(String method, String path, Map<String, List<String>> headers, String body) {

    String header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().getFirst()).findFirst().orElse(null);
    }
  }

  /** How the merchant answers one request. */
  record Reply(int status, String body, Duration delay, Map<String, String> headers) {

    static Reply status(int status) {
      return new Reply(status, "", Duration.ZERO, Map.of());
    }

    static Reply body(int status, String body) {
      return new Reply(status, body, Duration.ZERO, Map.of());
    }

    static Reply redirect(String location) {
      return new Reply(302, "", Duration.ZERO, Map.of("Location", location));
    }

    static Reply after(Duration delay, int status) {
      return new Reply(status, "", delay, Map.of());
    }

    static Reply withHeader(int status, String name, String value) {
      return new Reply(status, "", Duration.ZERO, Map.of(name, value));
    }
  }

  private final HttpServer server;
  private final Map<String, Deque<Reply>> scripts = new ConcurrentHashMap<>();
  private final List<Received> received = new CopyOnWriteArrayList<>();

  private TestReceiver(HttpServer server) {
    this.server = server;
  }

  static TestReceiver start() {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      TestReceiver receiver = new TestReceiver(server);
      server.createContext("/", receiver::handle);
      // virtual threads: a reply that sleeps past the dispatcher's timeout blocks no other test's receiver
      server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
      server.start();
      return receiver;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  void script(String path, Reply... replies) {
    scripts.put(path, new ArrayDeque<>(List.of(replies)));
  }

  List<Received> received(String path) {
    return received.stream().filter(r -> r.path().equals(path)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String path = exchange.getRequestURI().getPath();
      received.add(new Received(exchange.getRequestMethod(), path, Map.copyOf(exchange.getRequestHeaders()), body));
      Reply reply = next(path);
      if (!reply.delay().isZero()) {
        Thread.sleep(reply.delay());
      }
      reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
      byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the dispatcher gave up on us (timeout, or it read enough); nothing to answer
    }
  }

  private Reply next(String path) {
    Deque<Reply> script = scripts.get(path);
    if (script == null) {
      return Reply.status(200);
    }
    synchronized (script) {
      return script.size() > 1 ? script.poll() : script.peek();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
