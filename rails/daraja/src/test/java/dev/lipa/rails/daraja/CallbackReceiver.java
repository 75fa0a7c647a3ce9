package dev.lipa.rails.daraja;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The platform's side of Daraja's callbacks in the contract tests: a real HTTP server that keeps what it is sent. */
final class CallbackReceiver implements AutoCloseable {

  private final HttpServer server;
  private final Map<String, BlockingQueue<String>> bodies = new ConcurrentHashMap<>();

  CallbackReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.createContext("/", exchange -> {
      try (exchange) {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        queue(exchange.getRequestURI().getPath()).add(body);
        exchange.sendResponseHeaders(200, -1);
      }
    });
    server.start();
  }

  URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  /** The next body posted to the path, or null after the wait. */
  String next(String path, Duration wait) throws InterruptedException {
    return queue(path).poll(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Everything posted to the path so far, without waiting. */
  List<String> drain(String path) {
    List<String> out = new ArrayList<>();
    queue(path).drainTo(out);
    return out;
  }

  void clear() {
    bodies.clear();
  }

  private BlockingQueue<String> queue(String path) {
    return bodies.computeIfAbsent(path, p -> new LinkedBlockingQueue<>());
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
