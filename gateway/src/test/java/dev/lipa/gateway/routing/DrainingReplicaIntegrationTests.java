package dev.lipa.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.gateway.support.BalancedGateway;
import dev.lipa.gateway.support.Replica;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A replica stopped the way every service stops (common's ReadinessDrain): its readiness answers 503 at once, it keeps
 * serving for the drain delay, then it shuts down gracefully (in-flight requests answered, every connection closed).
 * Under a steady stream of POSTs through the gateway, not one fails, and none reaches the replica once the gateway's
 * health check has had an interval to see it unready: what makes a rolling restart fail no request.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DrainingReplicaIntegrationTests {

  static final Replica STAYING = new Replica("payouts-1");
  static final Replica STOPPING = new Replica("payouts-2");
  static final String PAYOUTS = "/api/sandbox/v1/send-money/single";
  static final Duration INTERVAL = Duration.ofSeconds(1);
  /** Two intervals and a little more, as lipa.shutdown.drain-delay is to GATEWAY_HEALTH_CHECK_INTERVAL. */
  static final Duration DRAIN = INTERVAL.multipliedBy(2).plusMillis(500);
  /** One health-check round itself (two local GETs) and a request in flight, on a busy machine. */
  static final Duration ROUND = Duration.ofSeconds(1);
  static final int CLIENTS = 4;

  @LocalServerPort
  int port;

  @DynamicPropertySource
  static void replicas(DynamicPropertyRegistry registry) {
    BalancedGateway.register(registry, STAYING, STOPPING, INTERVAL.toMillis() + "ms");
  }

  TestHttp http() {
    return new TestHttp("http://localhost:" + port);
  }

  @Test
  void aReplicaThatGoesUnreadyThenDrainsThenStopsFailsNoRequestAndGetsNoneAfterAnInterval() throws Exception {
    await().atMost(Duration.ofSeconds(20)).until(() -> {
      http().postJson(PAYOUTS, BalancedGateway.body(), BalancedGateway.authorized());
      return STAYING.requests() > 0 && STOPPING.requests() > 0;
    });
    AtomicBoolean loading = new AtomicBoolean(true);
    AtomicInteger answered = new AtomicInteger();
    Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    List<CompletableFuture<Void>> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      clients.add(CompletableFuture.runAsync(() -> {
        while (loading.get()) {
          String outcome;
          try {
            int status = http().postJson(PAYOUTS, BalancedGateway.body(), BalancedGateway.authorized()).status();
            outcome = status == 200 ? null : "status " + status;
          } catch (IllegalStateException e) {
            outcome = String.valueOf(e.getCause());
          }
          if (outcome == null) {
            answered.incrementAndGet();
          } else {
            failures.computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
          }
        }
      }, Thread::startVirtualThread));
    }
    long unreadyAt;
    try {
      int before = STOPPING.requests();
      await().atMost(Duration.ofSeconds(20)).until(() -> STOPPING.requests() > before + 20);

      // SIGTERM: readiness down at once, serving on for the drain delay, then the graceful stop
      unreadyAt = System.nanoTime();
      STOPPING.ready(false);
      // the replica's own drain (the behaviour under test), not a wait for something to happen
      Thread.sleep(DRAIN);
      STOPPING.stopGracefully(Duration.ofSeconds(1));

      // the stream goes on with the replica gone (a request balanced onto it would be refused and retried)
      int staying = STAYING.requests();
      await().atMost(Duration.ofSeconds(20)).until(() -> STAYING.requests() > staying + 40);
    } finally {
      loading.set(false);
      CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get();
      STOPPING.start();
      STOPPING.ready(true);
    }

    assertThat(failures).as("failed requests (%d answered)", answered.get()).isEmpty();
    long lastArrival = STOPPING.arrivals().getLast();
    assertThat(Duration.ofNanos(lastArrival - unreadyAt)).as("last POST to the stopping replica after it went unready")
        .isLessThan(INTERVAL.plus(ROUND));
  }
}
