package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.ids.OrganisationId;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.hc.core5.http.message.BasicHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The sender against a real local socket, with the SSRF guard in live and in local mode. */
class CallbackSenderIntegrationTests {

  private static HttpServer server;
  private static final List<String> hits = new CopyOnWriteArrayList<>();
  private static final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor();
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-15T09:00:00Z"), ZoneOffset.UTC);

  @BeforeAll
  static void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      hits.add(exchange.getRequestURI().getPath());
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
    server.start();
  }

  @AfterAll
  static void stopServer() {
    server.stop(0);
    deadlines.shutdownNow();
  }

  private static CallbackSender sender(boolean allowPrivateTargets) {
    CallbackUrlGuard guard = new CallbackUrlGuard(allowPrivateTargets);
    return new CallbackSender(GuardedHttpClient.create(guard, Duration.ofSeconds(1), Duration.ofSeconds(2), 10, 2),
        guard, CallbackSigner.unsigned(), Duration.ofSeconds(2), 1024, CLOCK, deadlines);
  }

  private static Delivery to(String url) {
    return new Delivery("cb-" + url.hashCode(), OrganisationId.of("org-1"), "req-1", url, "{}", "stk",
        DeliveryStatus.PENDING, 0, 0, "lease");
  }

  private static int port() {
    return server.getAddress().getPort();
  }

  @Nested
  class Live {

    @Test
    void refusesAHostNameThatResolvesToLoopbackWithoutConnecting() throws IOException {
      try (CallbackSender live = sender(false)) {
        AttemptOutcome outcome = live.send(to("http://localhost:" + port() + "/live-localhost"));

        assertThat(outcome.retryable()).isFalse();
        assertThat(outcome.error()).startsWith("destination refused:").contains("loopback");
      }
      assertThat(hits).doesNotContain("/live-localhost");
    }

    @Test
    void refusesLoopbackInAnyNumericSpelling() throws IOException {
      try (CallbackSender live = sender(false)) {
        for (String host : List.of("127.0.0.1", "2130706433", "0x7f000001", "0177.0.0.1", "[::ffff:127.0.0.1]")) {
          AttemptOutcome outcome = live.send(to("http://" + host + ":" + port() + "/live-numeric"));
          assertThat(outcome.retryable()).as(host).isFalse();
          assertThat(outcome.error()).as(host).startsWith("destination refused:");
        }
      }
      assertThat(hits).doesNotContain("/live-numeric");
    }
  }

  @Nested
  class LocalPlatform {

    @Test
    void deliversToLoopbackWhenPrivateTargetsAreAllowed() throws IOException {
      try (CallbackSender local = sender(true)) {
        AttemptOutcome outcome = local.send(to("http://localhost:" + port() + "/local-localhost"));

        assertThat(outcome.succeeded()).isTrue();
        assertThat(outcome.statusCode()).isEqualTo(204);
      }
      assertThat(hits).contains("/local-localhost");
    }

    @Test
    void connectsToTheAddressADecimalHostStandsFor() throws IOException {
      try (CallbackSender local = sender(true)) {
        assertThat(local.send(to("http://2130706433:" + port() + "/local-decimal")).succeeded()).isTrue();
      }
      assertThat(hits).contains("/local-decimal");
    }

    @Test
    void stillRefusesCloudMetadata() throws IOException {
      try (CallbackSender local = sender(true)) {
        AttemptOutcome outcome = local.send(to("http://169.254.169.254/latest/meta-data"));
        assertThat(outcome.retryable()).isFalse();
        assertThat(outcome.error()).contains("cloud metadata");
      }
    }
  }

  @Nested
  class RetryAfter {

    @Test
    void readsDeltaSeconds() {
      assertThat(CallbackSender.retryAfter(new BasicHeader("Retry-After", "120"), CLOCK.instant()))
          .isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void readsAnHttpDate() {
      assertThat(CallbackSender.retryAfter(new BasicHeader("Retry-After", "Thu, 15 Jan 2026 09:30:00 GMT"),
          CLOCK.instant())).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void ignoresWhatItCannotRead() {
      assertThat(CallbackSender.retryAfter(new BasicHeader("Retry-After", "soon"), CLOCK.instant())).isNull();
      assertThat(CallbackSender.retryAfter(null, CLOCK.instant())).isNull();
    }
  }
}
