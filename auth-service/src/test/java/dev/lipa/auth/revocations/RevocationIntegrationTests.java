package dev.lipa.auth.revocations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoDatabase;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthFixtures.Credentials;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.RevocationFeed;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.testsupport.TestHttp;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Revocation within seconds: a verifier built like every other service's (JWKS and revocation feed read over HTTP from
 * this service, the feed polled at the platform's default interval) accepts a token, the operator revokes, and the
 * verifier refuses the token it had verified and cached, within a few seconds.
 */
@AuthServiceIntegrationTest
class RevocationIntegrationTests {

  /** The platform's poll interval is 2 s; a revocation must arrive well within this. */
  private static final Duration WITHIN_SECONDS = Duration.ofSeconds(10);

  @LocalServerPort
  int port;

  @Autowired
  MongoDatabase database;

  AuthFixtures fixtures;
  TestHttp http;
  RevocationFeed feed;
  TokenVerifier verifier;

  @BeforeEach
  void setUp() {
    fixtures = new AuthFixtures(port);
    http = fixtures.http();
    feed = new RevocationFeed(URI.create(base() + RevocationFeed.PATH), AuthFixtures.INTERNAL_TOKEN,
        Duration.ofSeconds(2), 3, Clock.systemUTC()).start();
    verifier = new TokenVerifier(new JwksKeys(URI.create(base() + "/.well-known/jwks.json"), Clock.systemUTC(),
        Duration.ofSeconds(10)), "lipa-auth", "lipa-api", Clock.systemUTC(), Duration.ofMinutes(5), feed);
  }

  @AfterEach
  void stopFeed() {
    feed.close();
  }

  @Nested
  class RevokeApiKey {

    @Test
    void aRevokedKeysAccessTokensAreRefusedEverywhereWithinSeconds() {
      String organisation = fixtures.newOrganisation();
      Credentials leaked = fixtures.issueKey(organisation);
      Credentials kept = fixtures.issueKey(organisation);
      String leakedToken = accessToken(leaked);
      String keptToken = accessToken(kept);
      String otherOrganisationsToken = accessToken(fixtures.issueKey(fixtures.newOrganisation()));
      assertThat(verifier.verifyAccess(leakedToken).apiKey()).isEqualTo(leaked.apiKey());
      assertThat(verifier.verifyAccess(keptToken).organisationId()).isEqualTo(organisation);

      revokeKey(leaked);

      await().atMost(WITHIN_SECONDS).until(() -> refused(leakedToken));
      assertThat(verifier.verifyAccess(keptToken).organisationId()).isEqualTo(organisation);
      assertThat(verifier.verifyAccess(otherOrganisationsToken)).isNotNull();
    }

    @Test
    void aRevokedLiveKeysAccessTokensAreRefusedEverywhereWithinSeconds() {
      Credentials live = fixtures.issueKey(fixtures.newOrganisation(), "live");
      String liveToken = accessToken(live);
      assertThat(verifier.verifyAccess(liveToken).environment()).isEqualTo(Environment.LIVE);

      revokeKey(live);

      await().atMost(WITHIN_SECONDS).until(() -> refused(liveToken));
    }

    @Test
    void aRevokedKeysRefreshTokenBuysNothing() {
      Credentials leaked = fixtures.issueKey(fixtures.newOrganisation());
      JsonNode pair = fixtures.tokens(leaked);

      revokeKey(leaked);

      TestHttp.Response refresh = fixtures.refresh(pair.get("refresh_token").asString());
      assertThat(refresh.status()).isEqualTo(401);
      assertThat(refresh.json().get("message").asString()).isEqualTo("Invalid refresh token");
    }

    @Test
    void aPairBoughtWithTheKeysRefreshTokenNamesTheKeyToo() {
      Credentials credentials = fixtures.issueKey(fixtures.newOrganisation());
      JsonNode first = fixtures.tokens(credentials);
      JsonNode second = fixtures.refresh(first.get("refresh_token").asString()).json().get("data");
      String refreshedAccess = second.get("access_token").asString();
      assertThat(verifier.verifyAccess(refreshedAccess).apiKey()).isEqualTo(credentials.apiKey());

      revokeKey(credentials);

      await().atMost(WITHIN_SECONDS).until(() -> refused(refreshedAccess));
      assertThat(fixtures.refresh(second.get("refresh_token").asString()).status()).isEqualTo(401);
    }
  }

  @Nested
  class RevokeOrganisationTokens {

    @Test
    void everyTokenOfTheOrganisationIssuedBeforeIsRefusedWithinSecondsAndItsKeysStillWork() {
      String organisation = fixtures.newOrganisation();
      Credentials first = fixtures.issueKey(organisation);
      Credentials second = fixtures.issueKey(organisation);
      String firstToken = accessToken(first);
      JsonNode secondPair = fixtures.tokens(second);
      String otherOrganisationsToken = accessToken(fixtures.issueKey(fixtures.newOrganisation()));
      verifier.verifyAccess(firstToken);
      verifier.verifyAccess(secondPair.get("access_token").asString());

      TestHttp.Response response = revokeTokens(organisation);

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("message").asString()).isEqualTo("Tokens revoked");
      assertThat(response.json().get("data").get("organisationId").asString()).isEqualTo(organisation);
      assertThat(response.json().get("data").get("revokedBefore").asString())
          .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}");
      await().atMost(WITHIN_SECONDS).until(() -> refused(firstToken)
          && refused(secondPair.get("access_token").asString()));
      assertThat(fixtures.refresh(secondPair.get("refresh_token").asString()).status()).isEqualTo(401);
      assertThat(verifier.verifyAccess(otherOrganisationsToken)).isNotNull();
      // the keys still buy tokens; one issued in the revocation's own second is refused too (iat is whole seconds)
      await().atMost(WITHIN_SECONDS).until(() -> !refused(accessToken(first)));
    }

    @Test
    void answers404ForAnUnknownOrganisationAndRevokesNothing() {
      TestHttp.Response response = revokeTokens(UUID.randomUUID().toString());

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.body()).isEqualTo("{\"status\":404,\"message\":\"Organisation not found\",\"data\":null}");
    }

    @Test
    void needsTheOperatorToken() {
      String organisation = fixtures.newOrganisation();

      TestHttp.Response response = http.send("POST", "/admin/v1/organisations/" + organisation + "/revoke-tokens",
          null, Map.of());

      assertThat(response.status()).isEqualTo(401);
      assertThat(feedBody(Map.of()).toString()).doesNotContain(organisation);
    }
  }

  @Nested
  class Feed {

    @Test
    void refusesCallersWithoutTheInternalToken() {
      for (Map<String, String> headers : List.of(Map.<String, String>of(),
          Map.of("X-Internal-Token", AuthFixtures.INTERNAL_TOKEN + "x"),
          Map.of("X-Operator-Token", AuthFixtures.OPERATOR_TOKEN))) {
        TestHttp.Response response = http.get(RevocationFeed.PATH, headers);

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.body()).isEqualTo("{\"status\":401,\"message\":\"invalid internal token\",\"data\":null}");
      }
    }

    @Test
    void listsRevokedKeysAndOrganisationsWithAVersionAndAnswers304WhileNothingChanged() {
      Credentials revokedKey = fixtures.issueKey(fixtures.newOrganisation());
      String revokedOrganisation = fixtures.newOrganisation();
      revokeKey(revokedKey);
      revokeTokens(revokedOrganisation);

      TestHttp.Response first = http.get(RevocationFeed.PATH, internal());
      String etag = first.headers().firstValue("ETag").orElseThrow();
      TestHttp.Response again = http.get(RevocationFeed.PATH, Map.of("X-Internal-Token", AuthFixtures.INTERNAL_TOKEN,
          "If-None-Match", etag));

      assertThat(first.status()).isEqualTo(200);
      JsonNode data = first.json().get("data");
      assertThat(etag).isEqualTo("\"" + data.get("version").asString() + "\"");
      assertThat(data.get("apiKeys").valueStream().map(k -> k.get("apiKey").asString()))
          .contains(revokedKey.apiKey());
      assertThat(data.get("organisations").valueStream().map(o -> o.get("organisationId").asString()))
          .contains(revokedOrganisation);
      assertThat(again.status()).isEqualTo(304);
      assertThat(again.body()).isEmpty();
    }

    @Test
    void holdsOnlyRevocationsYoungerThanAnAccessTokensLifetime() {
      String old = "org-revoked-an-hour-ago-" + UUID.randomUUID();
      String young = "org-revoked-a-minute-ago-" + UUID.randomUUID();
      Instant anHourAgo = Instant.now().minus(1, ChronoUnit.HOURS);
      Instant aMinuteAgo = Instant.now().minus(1, ChronoUnit.MINUTES);
      // as the store holds them: the old one's access tokens (300 s plus skew) have all expired, until a sweep takes it
      database.getCollection(RevocationStore.COLLECTION).insertMany(List.of(
          new Document("_id", "organisation:" + old).append("kind", "ORGANISATION").append("organisationId", old)
              .append("at", Date.from(anHourAgo)).append("feedUntil", Date.from(anHourAgo.plusSeconds(420))),
          new Document("_id", "organisation:" + young).append("kind", "ORGANISATION").append("organisationId", young)
              .append("at", Date.from(aMinuteAgo)).append("feedUntil", Date.from(aMinuteAgo.plusSeconds(420)))));

      // the feed reuses its last read for half a second: wait for one that saw both documents
      await().atMost(WITHIN_SECONDS).until(() -> feedBody(internal()).toString().contains(young));

      assertThat(feedBody(internal()).toString()).doesNotContain(old);
      revokeTokens(fixtures.newOrganisation());
      assertThat(database.getCollection(RevocationStore.COLLECTION).countDocuments(
          new Document("_id", "organisation:" + old))).as("swept at the next revocation").isZero();
    }
  }

  private String accessToken(Credentials credentials) {
    return fixtures.tokens(credentials).get("access_token").asString();
  }

  private boolean refused(String token) {
    try {
      verifier.verifyAccess(token);
      return false;
    } catch (InvalidTokenException e) {
      return true;
    }
  }

  private void revokeKey(Credentials credentials) {
    TestHttp.Response response = http.send("DELETE", "/admin/v1/organisations/" + credentials.organisationId()
        + "/api-keys/" + credentials.apiKey(), null, AuthFixtures.operator());
    assertThat(response.status()).as(response.body()).isEqualTo(200);
  }

  private TestHttp.Response revokeTokens(String organisationId) {
    return http.send("POST", "/admin/v1/organisations/" + organisationId + "/revoke-tokens", null,
        AuthFixtures.operator());
  }

  private JsonNode feedBody(Map<String, String> headers) {
    TestHttp.Response response = http.get(RevocationFeed.PATH, headers.isEmpty() ? internal() : headers);
    assertThat(response.status()).isEqualTo(200);
    return response.json();
  }

  private static Map<String, String> internal() {
    return Map.of("X-Internal-Token", AuthFixtures.INTERNAL_TOKEN);
  }

  private String base() {
    return "http://127.0.0.1:" + port;
  }
}
