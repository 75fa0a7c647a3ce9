package dev.lipa.infra.bench;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.bson.Document;

/**
 * The reference payment's callbacks: a POST of the spec's body to the merchant's callbackUrl, signed as the callback
 * dispatcher signs (Standard Webhooks: {@code webhook-id} the callbackId, {@code webhook-timestamp},
 * {@code webhook-signature}; {@link WebhookSigning}), over keep-alive HTTP/1.1 connections ({@link #CONNECTIONS} per
 * destination at most), then one insert of the delivery with its attempt log into {@value #DELIVERIES}. An attempt
 * that gets no 2xx is tried again after a pause, {@link #ATTEMPTS} times in all. The dispatcher's URL guard, its
 * per-destination gates and its durable retry schedule are left out: against the bench's receiver they never act.
 */
final class ReferenceCallbacks {

  static final String DELIVERIES = "deliveries";
  static final int CONNECTIONS = 64;
  static final int ATTEMPTS = 3;
  private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
  private static final int REQUEST_TIMEOUT_MILLIS = 10_000;
  private static final long RETRY_PAUSE_MILLIS = 1_000;

  /** Idle keep-alive connections to one destination, and how many may be open at once. */
  private record Destination(InetSocketAddress address, Semaphore open, ConcurrentLinkedDeque<Http1Connection> idle) {
  }

  private final MongoCollection<Document> deliveries;
  private final byte[] signingKey;
  private final Map<InetSocketAddress, Destination> destinations = new ConcurrentHashMap<>();
  private final LongAdder delivered = new LongAdder();
  private final LongAdder failed = new LongAdder();

  ReferenceCallbacks(MongoDatabase database, byte[] signingKey) {
    this.deliveries = database.getCollection(DELIVERIES);
    this.signingKey = signingKey.clone();
  }

  long delivered() {
    return delivered.sum();
  }

  long failed() {
    return failed.sum();
  }

  /** POSTs the callback (blocking: call it on a virtual thread), then writes its delivery. */
  void deliver(String organisationId, String callbackId, String requestId, String url, String body)
      throws InterruptedException {
    URI uri = URI.create(url);
    Destination destination = destinations.computeIfAbsent(StkRequests.address(uri),
        address -> new Destination(address, new Semaphore(CONNECTIONS), new ConcurrentLinkedDeque<>()));
    List<Document> attempts = new ArrayList<>();
    boolean succeeded = false;
    for (int attempt = 1; attempt <= ATTEMPTS && !succeeded; attempt++) {
      if (attempt > 1) {
        Thread.sleep(RETRY_PAUSE_MILLIS * (attempt - 1));
      }
      Instant at = Instant.now();
      long started = System.nanoTime();
      long timestamp = at.getEpochSecond();
      String headers = "webhook-id: " + callbackId + "\r\nIdempotency-Key: " + callbackId
          + "\r\nwebhook-timestamp: " + timestamp
          + "\r\nwebhook-signature: " + WebhookSigning.sign(signingKey, callbackId, timestamp, body) + "\r\n";
      Document log = new Document("attempt", attempt).append("at", Date.from(at)).append("url", url);
      try {
        int status = post(destination, StkRequests.post(uri, headers, body));
        succeeded = status >= 200 && status < 300;
        log.append("statusCode", status).append("error", null);
      } catch (IOException e) {
        log.append("statusCode", null).append("error", OpenLoad.kind(e));
      }
      attempts.add(log.append("latencyMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)));
    }
    (succeeded ? delivered : failed).increment();
    Date now = new Date();
    deliveries.insertOne(new Document("_id", callbackId)
        .append("organisationId", organisationId)
        .append("requestId", requestId)
        .append("kind", "stk")
        .append("url", url)
        .append("body", body)
        .append("status", succeeded ? "DELIVERED" : "FAILED")
        .append("attempts", attempts.size())
        .append("attemptLog", attempts)
        .append("createdAt", attempts.getFirst().get("at"))
        .append("updatedAt", now));
  }

  /** One exchange over an idle connection of the destination (or a new one, within its limit); the status code. */
  private static int post(Destination destination, byte[] request) throws IOException, InterruptedException {
    destination.open().acquire();
    Http1Connection connection = destination.idle().pollFirst();
    try {
      if (connection == null) {
        connection = new Http1Connection(destination.address(), CONNECT_TIMEOUT_MILLIS);
      }
      return connection.exchange(request, REQUEST_TIMEOUT_MILLIS).status();
    } finally {
      // a connection that failed has closed itself, and opens again when next used
      destination.idle().offerFirst(connection);
      destination.open().release();
    }
  }

  /** Closes the idle connections. */
  void close() {
    destinations.values().forEach(destination -> {
      for (Http1Connection connection = destination.idle().pollFirst(); connection != null;
          connection = destination.idle().pollFirst()) {
        connection.close();
      }
    });
  }
}
