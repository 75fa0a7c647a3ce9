package dev.lipa.common.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The feed follower against a real local HTTP server standing in for auth-service's feed. */
class RevocationFeedTests {

  private static final String INTERNAL_TOKEN = "internal-token-for-feed-tests";

  private HttpServer server;
  private volatile String version = "v1";
  private volatile String body = feedBody("v1", "lk_leaked");
  private volatile int failWith;
  private final List<String> tokensSeen = new CopyOnWriteArrayList<>();
  private final List<String> ifNoneMatchSeen = new CopyOnWriteArrayList<>();
  private final AtomicInteger notModified = new AtomicInteger();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  @BeforeEach
  void startFeed() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(RevocationFeed.PATH, exchange -> {
      try (exchange) {
        tokensSeen.add(String.valueOf(exchange.getRequestHeaders().getFirst("X-Internal-Token")));
        String ifNoneMatch = exchange.getRequestHeaders().getFirst("If-None-Match");
        ifNoneMatchSeen.add(String.valueOf(ifNoneMatch));
        if (failWith != 0) {
          exchange.sendResponseHeaders(failWith, -1);
          return;
        }
        if (("\"" + version + "\"").equals(ifNoneMatch)) {
          notModified.incrementAndGet();
          exchange.sendResponseHeaders(304, -1);
          return;
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("ETag", "\"" + version + "\"");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
      }
    });
    server.start();
    logs.start();
    ((Logger) LoggerFactory.getLogger(RevocationFeed.class)).addAppender(logs);
  }

  @AfterEach
  void stopFeed() {
    ((Logger) LoggerFactory.getLogger(RevocationFeed.class)).detachAppender(logs);
    server.stop(0);
  }

  @Test
  void readsTheListWithTheInternalToken() {
    RevocationFeed feed = feed(3);

    assertThat(feed.poll()).isTrue();

    assertThat(feed.current().version()).isEqualTo("v1");
    assertThat(feed.isRevoked(token("lk_leaked"))).isTrue();
    assertThat(feed.isRevoked(token("lk_other"))).isFalse();
    assertThat(tokensSeen).containsOnly(INTERNAL_TOKEN);
  }

  @Test
  void asksOnlyForChangesAndKeepsItsListWhenNothingChanged() {
    RevocationFeed feed = feed(3);
    feed.poll();

    assertThat(feed.poll()).isTrue();
    assertThat(feed.poll()).isTrue();

    assertThat(ifNoneMatchSeen).containsExactly("null", "\"v1\"", "\"v1\"");
    assertThat(notModified).hasValue(2);
    assertThat(feed.isRevoked(token("lk_leaked"))).isTrue();
  }

  @Test
  void keepsTheLastKnownListWhileTheFeedFailsAndRaisesAnErrorAfterSoManyFailures() {
    RevocationFeed feed = feed(3);
    feed.poll();
    failWith = 503;

    assertThat(feed.poll()).isFalse();
    assertThat(feed.poll()).isFalse();
    assertThat(errors()).isEmpty();
    assertThat(feed.poll()).isFalse();

    assertThat(feed.consecutiveFailures()).isEqualTo(3);
    assertThat(feed.isRevoked(token("lk_leaked"))).isTrue();
    assertThat(errors()).singleElement().asString().contains("REVOCATION FEED UNREACHABLE", "503");

    failWith = 0;
    version = "v2";
    body = feedBody("v2", "lk_second");
    assertThat(feed.poll()).isTrue();
    assertThat(feed.consecutiveFailures()).isZero();
    assertThat(feed.isRevoked(token("lk_second"))).isTrue();
    assertThat(feed.isRevoked(token("lk_leaked"))).isFalse();
  }

  @Test
  void anUnreadableAnswerOrARefusalIsAFailureNotAnEmptyList() {
    RevocationFeed feed = feed(1);
    feed.poll();
    body = "{\"status\":200,\"data\":{\"version\":\"v9\"}}";
    version = "v9";

    assertThat(feed.poll()).isFalse();
    failWith = 401;
    assertThat(feed.poll()).isFalse();

    assertThat(feed.isRevoked(token("lk_leaked"))).isTrue();
    assertThat(feed.consecutiveFailures()).isEqualTo(2);
  }

  @Test
  void aFeedNobodyAnswersIsAFailure() {
    server.stop(0);
    RevocationFeed feed = feed(1);

    assertThat(feed.poll()).isFalse();

    assertThat(feed.current()).isEqualTo(RevocationList.EMPTY);
    assertThat(errors()).hasSize(1);
  }

  @Test
  void followsTheFeedOnItsOwnOnceStarted() {
    try (RevocationFeed feed = new RevocationFeed(uri(), INTERNAL_TOKEN, Duration.ofMillis(100), 3,
        Clock.systemUTC()).start()) {
      await().atMost(Duration.ofSeconds(10)).until(() -> feed.isRevoked(token("lk_leaked")));

      version = "v2";
      body = feedBody("v2", "lk_later");

      await().atMost(Duration.ofSeconds(10)).until(() -> feed.isRevoked(token("lk_later")));
    }
  }

  private RevocationFeed feed(int alertAfterFailures) {
    return new RevocationFeed(uri(), INTERNAL_TOKEN, Duration.ofSeconds(2), alertAfterFailures, Clock.systemUTC());
  }

  private URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + RevocationFeed.PATH);
  }

  private List<String> errors() {
    return logs.list.stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  private static String feedBody(String version, String apiKey) {
    return "{\"status\":200,\"message\":\"Revocations fetched\",\"data\":{\"version\":\"" + version
        + "\",\"apiKeys\":[{\"apiKey\":\"" + apiKey + "\",\"organisationId\":\"org-1\",\"revokedAt\":\""
        + Instant.now() + "\"}],\"organisations\":[]}}";
  }

  private static VerifiedToken token(String apiKey) {
    Instant now = Instant.now();
    return new VerifiedToken("org-1", "jti", TokenClaims.ACCESS, null, now.plusSeconds(300), null, apiKey, now, null);
  }
}
