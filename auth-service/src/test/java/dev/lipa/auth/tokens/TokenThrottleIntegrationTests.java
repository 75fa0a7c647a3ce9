package dev.lipa.auth.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthFixtures.Credentials;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.testsupport.TestHttp;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Failed token requests are throttled per (API key, client address) with a growing back-off, before any secret is
 * checked. The test's calls come from 127.0.0.1, the one trusted proxy of the test configuration, with an
 * {@code X-Forwarded-For} naming a fresh client address per test (as the gateway would), or from 127.0.0.5, which is
 * no trusted proxy.
 */
@AuthServiceIntegrationTest
class TokenThrottleIntegrationTests {

  private static final String GET_TOKEN = "/api/v1/get-token";
  private static final String REFRESH_TOKEN = "/api/v1/refresh-token";

  @LocalServerPort
  int port;

  private AuthFixtures fixtures;
  private Credentials credentials;

  @BeforeEach
  void freshKey() {
    fixtures = new AuthFixtures(port);
    credentials = fixtures.issueKey(fixtures.newOrganisation());
  }

  private static String newClientAddress() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    return "198.51." + random.nextInt(256) + "." + random.nextInt(1, 255);
  }

  private TestHttp.Response getToken(String from, String forwardedFor, String apiKey, String apiSecret) {
    return post(from, forwardedFor, GET_TOKEN, TestHttp.json(Map.of("apiKey", apiKey, "apiSecret", apiSecret)));
  }

  private TestHttp.Response wrongSecret(String client) {
    return getToken("127.0.0.1", client, credentials.apiKey(), "wrong-" + UUID.randomUUID());
  }

  private TestHttp.Response rightSecret(String client) {
    return getToken("127.0.0.1", client, credentials.apiKey(), credentials.apiSecret());
  }

  /** A POST from the given local address (a loopback address of this machine), with X-Forwarded-For if not null. */
  private TestHttp.Response post(String from, String forwardedFor, String path, String body) {
    try {
      HttpClient client = HttpClient.newBuilder().localAddress(InetAddress.getByName(from))
          .connectTimeout(Duration.ofSeconds(5)).build();
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body));
      if (forwardedFor != null) {
        request.header("X-Forwarded-For", forwardedFor);
      }
      HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new TestHttp.Response(response.statusCode(), response.headers(), response.body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void assertThrottled(TestHttp.Response response, long maxRetryAfter) {
    assertThat(response.status()).as(response.body()).isEqualTo(429);
    JsonNode body = response.json();
    assertThat(body.get("status").asString()).isEqualTo("TOO_MANY_REQUESTS");
    assertThat(body.get("message").asString()).isEqualTo(TokenThrottle.MESSAGE);
    assertThat(body.get("data").isNull()).isTrue();
    assertThat(response.headers().firstValue("Retry-After")).hasValueSatisfying(seconds ->
        assertThat(Long.parseLong(seconds)).isBetween(1L, maxRetryAfter));
    assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
  }

  @Nested
  class GetToken {

    @Test
    void answers429BeforeCheckingTheSecretAfterFiveFailuresOfAKeyFromAnAddress() {
      String client = newClientAddress();
      for (int i = 0; i < 5; i++) {
        assertThat(wrongSecret(client).status()).isEqualTo(401);
      }

      assertThrottled(wrongSecret(client), 60);
      // the right secret is not even looked at: a lockout that still checks secrets would protect nothing
      assertThrottled(rightSecret(client), 60);
    }

    @Test
    void failuresFromOneAddressNeverThrottleAnotherAddressUsingTheSameKey() {
      String attacker = newClientAddress();
      for (int i = 0; i < 8; i++) {
        wrongSecret(attacker);
      }
      assertThrottled(rightSecret(attacker), 60);

      String merchant = newClientAddress();
      assertThat(rightSecret(merchant).status()).isEqualTo(200);
      assertThat(wrongSecret(merchant).status()).isEqualTo(401);
    }

    @Test
    void onlyFailuresSpendTokens() {
      String client = newClientAddress();
      for (int i = 0; i < 4; i++) {
        assertThat(wrongSecret(client).status()).isEqualTo(401);
      }
      for (int i = 0; i < 3; i++) {
        assertThat(rightSecret(client).status()).isEqualTo(200);
      }

      assertThat(wrongSecret(client).status()).isEqualTo(401);
      assertThrottled(wrongSecret(client), 60);
    }

    @Test
    void aMalformedRequestIsNoFailure() {
      String client = newClientAddress();
      for (int i = 0; i < 8; i++) {
        assertThat(post("127.0.0.1", client, GET_TOKEN, "{\"apiKey\":\"" + credentials.apiKey() + "\"}").status())
            .isEqualTo(400);
      }
      assertThat(rightSecret(client).status()).isEqualTo(200);
    }

    @Test
    void concurrentGuessesAgainstAFreshKeyAreAllCounted() {
      String client = newClientAddress();
      AtomicInteger unauthorized = new AtomicInteger();
      List<Thread> guesses = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        guesses.add(Thread.ofVirtual().start(() -> {
          if (wrongSecret(client).status() == 401) {
            unauthorized.incrementAndGet();
          }
        }));
      }
      guesses.forEach(TokenThrottleIntegrationTests::join);
      assertThat(unauthorized.get()).isGreaterThanOrEqualTo(5);

      // every checked guess spent a token, those past the five free ones included: the wait is for all of them
      TestHttp.Response next = rightSecret(client);
      assertThrottled(next, 20 * 60);
      assertThat(Long.parseLong(next.headers().firstValue("Retry-After").orElseThrow()))
          .isGreaterThan((unauthorized.get() - 5 - 1) * 60L);
    }

    @Test
    void guessingAcrossManyKeysFromOneAddressIsThrottledToo() {
      String client = newClientAddress();
      IntStream.range(0, 50).forEach(i -> assertThat(getToken("127.0.0.1", client, "lk_sbx_guess" + i, "x")
          .status()).isEqualTo(401));

      assertThrottled(getToken("127.0.0.1", client, "lk_sbx_another", "x"), 30);
      assertThrottled(rightSecret(client), 30);
      assertThat(rightSecret(newClientAddress()).status()).isEqualTo(200);
    }

    @Test
    void aClientThatIsNoTrustedProxyCannotChooseItsAddress() {
      // 127.0.0.5 is not a trusted proxy: whatever it puts in X-Forwarded-For, it is throttled as itself
      for (int i = 0; i < 5; i++) {
        assertThat(getToken("127.0.0.5", "1.2.3." + i, credentials.apiKey(), "wrong").status()).isEqualTo(401);
      }
      assertThrottled(getToken("127.0.0.5", "9.9.9.9", credentials.apiKey(), credentials.apiSecret()), 60);
      assertThrottled(getToken("127.0.0.5", null, credentials.apiKey(), credentials.apiSecret()), 60);

      // the addresses it named were never charged
      assertThat(getToken("127.0.0.1", "1.2.3.0", credentials.apiKey(), credentials.apiSecret()).status())
          .isEqualTo(200);
    }
  }

  @Nested
  class RefreshToken {

    @Test
    void answers429BeforeCheckingTheTokenAfterTwentyInvalidOnesFromAnAddress() {
      String client = newClientAddress();
      String refresh = fixtures.tokens(credentials).get("refresh_token").asString();
      for (int i = 0; i < 20; i++) {
        assertThat(post("127.0.0.1", client, REFRESH_TOKEN, "{\"refresh_token\":\"not-a-token-" + i + "\"}")
            .status()).isEqualTo(401);
      }

      assertThrottled(post("127.0.0.1", client, REFRESH_TOKEN, "{\"refresh_token\":\"" + refresh + "\"}"), 60);
      // another address is not affected, and the valid token was not spent by the refusal
      TestHttp.Response elsewhere = post("127.0.0.1", newClientAddress(), REFRESH_TOKEN,
          "{\"refresh_token\":\"" + refresh + "\"}");
      assertThat(elsewhere.status()).as(elsewhere.body()).isEqualTo(200);
    }
  }

  private static void join(Thread thread) {
    try {
      thread.join(Duration.ofSeconds(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
