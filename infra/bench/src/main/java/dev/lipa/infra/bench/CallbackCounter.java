package dev.lipa.infra.bench;

import com.sun.net.httpserver.Headers;
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
 * earlier run are told apart; further counters on paths of their own share its server ({@link #alongside}), and one
 * given the signing key checks every callback's Standard Webhooks signature.
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
  /** The server's executor when this counter started the server (and closes it); null for one alongside. */
  private final ExecutorService executor;
  private final String path;
  private final byte[] signingKey;
  private final Map<String, Received> received = new ConcurrentHashMap<>();
  private final LongAdder total = new LongAdder();
  private final LongAdder unreadable = new LongAdder();
  private final LongAdder badSignatures = new LongAdder();

  CallbackCounter(int port, String runId) throws IOException {
    this(HttpServer.create(new InetSocketAddress("127.0.0.1", port), 4096), Executors.newVirtualThreadPerTaskExecutor(),
        "/bench-callbacks/" + runId, null);
    server.setExecutor(executor);
    server.start();
  }

  private CallbackCounter(HttpServer server, ExecutorService executor, String path, byte[] signingKey) {
    this.server = server;
    this.executor = executor;
    this.path = path;
    this.signingKey = signingKey == null ? null : signingKey.clone();
    server.createContext(path, exchange -> {
      long now = System.currentTimeMillis();
      String body;
      try (InputStream in = exchange.getRequestBody()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      Headers headers = exchange.getRequestHeaders();
      if (this.signingKey != null && !WebhookSigning.verify(this.signingKey, headers.getFirst("webhook-id"),
          headers.getFirst("webhook-timestamp"), body, headers.getFirst("webhook-signature"))) {
        badSignatures.increment();
      }
      String requestId = Json.field(body, "requestId");
      total.increment();
      if (requestId == null) {
        unreadable.increment();
      } else {
        Received callbacks = received.computeIfAbsent(requestId, id -> new Received(now));
        callbacks.count.incrementAndGet();
        String webhookId = headers.getFirst("webhook-id");
        callbacks.webhookIds.add(webhookId == null ? "(none)" : webhookId);
      }
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
  }

  /**
   * A counter of its own on the same server, at this counter's path followed by {@code /name}; with a signing key
   * ({@code null} for none) it checks each callback's signature and counts those that fail ({@link #badSignatures}).
   */
  CallbackCounter alongside(String name, byte[] signingKey) {
    return new CallbackCounter(server, null, path + "/" + name, signingKey);
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

  /** Callbacks whose signature did not verify with the key given (0 when no key was given). */
  long badSignatures() {
    return badSignatures.sum();
  }

  /** Stops the server, or for a counter alongside, takes its path away. */
  @Override
  public void close() {
    if (executor == null) {
      server.removeContext(path);
      return;
    }
    server.stop(0);
    executor.shutdownNow();
  }
}
