package dev.lipa.infra.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The merchant's callback endpoint during a bench: counts the callbacks it receives per requestId and keeps the time
 * the first one arrived and the {@code webhook-id}s they carried. Each run has its own path, so late callbacks of an
 * earlier run are told apart.
 */
final class CallbackCounter implements AutoCloseable {

  /** The callbacks of one requestId, and the {@code webhook-id}s they came with (a redelivery repeats its id). */
  static final class Received {
    final long firstAtMillis;
    final AtomicInteger count = new AtomicInteger();
    final Set<String> webhookIds = ConcurrentHashMap.newKeySet();

    Received(long firstAtMillis) {
      this.firstAtMillis = firstAtMillis;
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final String path;
  private final Map<String, Received> received = new ConcurrentHashMap<>();
  private final LongAdder total = new LongAdder();
  private final LongAdder unreadable = new LongAdder();

  CallbackCounter(int port, String runId) throws IOException {
    this.path = "/bench-callbacks/" + runId;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 4096);
    server.setExecutor(executor);
    server.createContext(path, exchange -> {
      long now = System.currentTimeMillis();
      String body;
      try (InputStream in = exchange.getRequestBody()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      String requestId = Json.field(body, "requestId");
      total.increment();
      if (requestId == null) {
        unreadable.increment();
      } else {
        Received callbacks = received.computeIfAbsent(requestId, id -> new Received(now));
        callbacks.count.incrementAndGet();
        String webhookId = exchange.getRequestHeaders().getFirst("webhook-id");
        callbacks.webhookIds.add(webhookId == null ? "(none)" : webhookId);
      }
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  Received get(String requestId) {
    return received.get(requestId);
  }

  Map<String, Received> all() {
    return received;
  }

  long total() {
    return total.sum();
  }

  long unreadable() {
    return unreadable.sum();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
