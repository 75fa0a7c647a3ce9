package dev.lipa.common.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import de.bwaldvogel.mongo.MongoServer;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.web.Envelope;
import dev.lipa.store.StoreBackends;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A service wired as the platform's are (auto-configuration only) takes writes from several clients at once, and its
 * store is stopped under it: every answer is a 201 or the documented 503, never a 500, whether the request was in
 * flight when the store went, found the connection pool cleared, or waited for a server that never came back.
 */
@SpringBootTest(classes = StoreOutageIntegrationTests.OutageApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "spring.application.name=outage-tests",
        "spring.mongodb.database=outage-tests",
        "spring.autoconfigure.exclude=org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration",
        "lipa.secrets.master-keys=" + SharedInfra.MASTER_KEYS})
class StoreOutageIntegrationTests {

  private static final int CLIENTS = 8;
  private static final MongoServer STORE = new MongoServer(StoreBackends.memory());
  private static final InetSocketAddress ADDRESS = STORE.bind();

  @LocalServerPort
  int port;

  @DynamicPropertySource
  static void store(DynamicPropertyRegistry properties) {
    // the service gives up on finding a server after 1 s (the driver's default is 30 s)
    properties.add("spring.mongodb.uri", () -> "mongodb://127.0.0.1:" + ADDRESS.getPort()
        + "/?serverSelectionTimeoutMS=1000&connectTimeoutMS=500&retryWrites=false");
  }

  @AfterAll
  static void stopStore() {
    STORE.shutdownNow();
  }

  @Test
  void everyAnswerIsA201OrThe503WhileTheStoreIsStoppedMidTraffic() throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest create = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/test/v1/payments"))
        .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build();
    Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    List<HttpResponse<String>> unavailable = new CopyOnWriteArrayList<>();
    AtomicBoolean stopped = new AtomicBoolean();
    AtomicInteger afterTheStop = new AtomicInteger();
    List<CompletableFuture<Void>> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      clients.add(CompletableFuture.runAsync(() -> {
        while (afterTheStop.get() < 40) {
          boolean storeWasStopped = stopped.get();
          HttpResponse<String> response = send(http, create);
          statuses.computeIfAbsent(response.statusCode(), s -> new AtomicInteger()).incrementAndGet();
          if (response.statusCode() == 503) {
            unavailable.add(response);
          }
          if (storeWasStopped) {
            afterTheStop.incrementAndGet();
          }
        }
      }, Thread::startVirtualThread));
    }
    while (statuses.getOrDefault(201, new AtomicInteger()).get() < 200) {
      Thread.sleep(10);
    }
    STORE.shutdownNow(); // mid-traffic: requests in flight, others about to check out a connection
    stopped.set(true);
    CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get();

    assertThat(statuses.keySet()).as("statuses %s", statuses).containsExactlyInAnyOrder(201, 503);
    assertThat(unavailable).allSatisfy(response -> {
      assertThat(response.body())
          .isEqualTo("{\"status\":503,\"message\":\"" + StoreUnavailable.MESSAGE + "\",\"data\":null}");
      assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
    });
  }

  private static HttpResponse<String> send(HttpClient http, HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A service of the test's own: one endpoint that writes a document. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(OutageApplication.Payments.class)
  static class OutageApplication {

    @RestController
    static class Payments {

      private final MongoCollection<Document> payments;

      Payments(MongoClient client) {
        this.payments = client.getDatabase("outage-tests").getCollection("payments");
      }

      @PostMapping("/test/v1/payments")
      ResponseEntity<Envelope<Map<String, String>>> create() {
        String id = UUID.randomUUID().toString();
        payments.insertOne(new Document("_id", id).append("status", "PENDING"));
        return ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created("accepted", Map.of("id", id)));
      }
    }
  }
}
