package dev.lipa.common.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.sun.net.httpserver.HttpServer;
import dev.lipa.common.testsupport.MutableClock;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The key cache against a real local JWKS endpoint whose keys the test changes, with a clock the test moves. */
class JwksKeysTests {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-15T09:00:00Z"));
  private HttpServer issuer;
  private volatile List<ECKey> published;
  private volatile int status = 200;
  private final AtomicInteger fetches = new AtomicInteger();
  private ECKey old;
  private ECKey current;
  private JwksKeys keys;

  @BeforeEach
  void start() throws Exception {
    old = new ECKeyGenerator(Curve.P_256).keyID("old").generate();
    current = new ECKeyGenerator(Curve.P_256).keyID("current").generate();
    published = List.of(old, current);
    issuer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    issuer.createContext("/.well-known/jwks.json", exchange -> {
      fetches.incrementAndGet();
      byte[] body = new JWKSet(published.stream().map(k -> (JWK) k.toPublicJWK()).toList()).toString()
          .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    issuer.start();
    keys = new JwksKeys(URI.create("http://127.0.0.1:" + issuer.getAddress().getPort() + "/.well-known/jwks.json"),
        clock, Duration.ofSeconds(10), Duration.ofMinutes(5));
  }

  @AfterEach
  void stop() {
    issuer.stop(0);
  }

  @Test
  void servesKnownKeysFromTheCacheUntilTheSetIsOlderThanItsMaxAge() {
    assertThat(keys.key("old")).isNotNull();
    clock.advance(Duration.ofMinutes(4));

    assertThat(keys.key("old")).isNotNull();
    assertThat(keys.key("current")).isNotNull();
    assertThat(fetches).hasValue(1);
  }

  @Test
  void dropsAKeyTheIssuerRetiredOnceTheSetIsOlderThanItsMaxAge() {
    assertThat(keys.key("old")).isNotNull();
    long generation = keys.generation();
    published = List.of(current);

    clock.advance(Duration.ofMinutes(5));

    assertThat(keys.key("old")).isNull();
    assertThat(keys.key("current")).isNotNull();
    assertThat(keys.generation()).isGreaterThan(generation);
  }

  @Test
  void keepsVerifyingWithTheKnownKeysWhileTheIssuerIsAway() {
    assertThat(keys.key("current")).isNotNull();
    status = 503;

    clock.advance(Duration.ofMinutes(6));

    assertThat(keys.key("current")).isNotNull();
    // and does not ask again at every lookup meanwhile
    assertThat(keys.key("current")).isNotNull();
    assertThat(fetches).hasValue(2);
  }
}
