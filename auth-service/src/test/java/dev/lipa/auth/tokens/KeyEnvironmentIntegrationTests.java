package dev.lipa.auth.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthFixtures.Credentials;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.auth.keys.SigningKeys;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * An API key belongs to one environment: the operator chooses it when issuing the key (sandbox unless live is asked
 * for), the key's tokens carry it ({@code env}) as every verifier of the platform reads it, and no refresh, edited
 * token or old document moves a token family to the other environment.
 */
@AuthServiceIntegrationTest
class KeyEnvironmentIntegrationTests {

  private static final String INVALID_REFRESH_TOKEN =
      "{\"status\":\"UNAUTHORIZED\",\"message\":\"Invalid refresh token\",\"data\":null}";
  private static final String ENVIRONMENT_RULE = "environment must be \"sandbox\" or \"live\"";

  @LocalServerPort
  int port;

  @Autowired
  MongoDatabase database;

  @Autowired
  TokenMinter minter;

  @Autowired
  SigningKeys signingKeys;

  AuthFixtures fixtures;
  TestHttp http;
  String organisation;

  @BeforeEach
  void setUp() {
    fixtures = new AuthFixtures(port);
    http = fixtures.http();
    organisation = fixtures.newOrganisation();
  }

  /** A verifier like every other service's: the JWKS fetched over HTTP from this service. */
  private TokenVerifier platformVerifier() {
    JwksKeys keys = new JwksKeys(URI.create("http://127.0.0.1:" + port + "/.well-known/jwks.json"),
        Clock.systemUTC(), Duration.ofSeconds(10));
    return new TokenVerifier(keys, "lipa-auth", "lipa-api", Clock.systemUTC(), Duration.ofMinutes(5));
  }

  private TestHttp.Response issue(String organisationId, String body) {
    return http.postJson("/admin/v1/organisations/" + organisationId + "/api-keys", body, AuthFixtures.operator());
  }

  private long storedKeys(String organisationId) {
    return database.getCollection("api_keys").countDocuments(Filters.eq("organisationId", organisationId));
  }

  private Document storedKey(String apiKey) {
    return database.getCollection("api_keys").find(Filters.eq("_id", apiKey)).first();
  }

  private Document storedFamily(String refreshToken) throws Exception {
    String family = SignedJWT.parse(refreshToken).getJWTClaimsSet().getStringClaim("fam");
    return database.getCollection("token_families").find(Filters.eq("_id", family)).first();
  }

  @Nested
  class IssueKey {

    @Test
    void issuesALiveKeyWhenTheOperatorAsksForOne() {
      TestHttp.Response response = issue(organisation, "{\"environment\":\"live\"}");

      assertThat(response.status()).as(response.body()).isEqualTo(201);
      JsonNode data = response.json().get("data");
      assertThat(data.get("environment").asString()).isEqualTo("live");
      assertThat(data.get("apiKey").asString()).matches("lk_live_[a-z2-7]{32}");
      assertThat(storedKey(data.get("apiKey").asString()).getString("environment")).isEqualTo("live");
    }

    @Test
    void issuesASandboxKeyWithoutABodyWithAnEmptyOneOrWhenAskedFor() {
      List<TestHttp.Response> answers = List.of(
          http.send("POST", "/admin/v1/organisations/" + organisation + "/api-keys", null, AuthFixtures.operator()),
          issue(organisation, "{}"),
          issue(organisation, "{\"environment\":\"sandbox\"}"));

      assertThat(answers).allSatisfy(response -> {
        assertThat(response.status()).as(response.body()).isEqualTo(201);
        JsonNode data = response.json().get("data");
        assertThat(data.get("environment").asString()).isEqualTo("sandbox");
        assertThat(data.get("apiKey").asString()).matches("lk_sbx_[a-z2-7]{32}");
        assertThat(storedKey(data.get("apiKey").asString()).getString("environment")).isEqualTo("sandbox");
      });
    }

    static Stream<Arguments> otherEnvironments() {
      return Stream.of(
          Named.named("upper case with a trailing space", "\"LIVE \""),
          Named.named("upper case", "\"LIVE\""),
          Named.named("mixed case", "\"Live\""),
          Named.named("leading space", "\" live\""),
          Named.named("a tab", "\"live\\t\""),
          Named.named("a NUL after it", "\"live\\u0000\""),
          Named.named("another name", "\"prod\""),
          Named.named("production", "\"production\""),
          Named.named("empty", "\"\""),
          Named.named("a number", "1"),
          Named.named("null", "null"),
          Named.named("a boolean", "true"),
          Named.named("an array", "[\"live\"]"),
          Named.named("an object", "{\"environment\":\"live\"}")).map(Arguments::of);
    }

    @ParameterizedTest
    @MethodSource("otherEnvironments")
    void refusesAnyOtherEnvironmentNamingTheFieldAndCreatesNothing(String value) {
      TestHttp.Response response = issue(organisation, "{\"environment\":" + value + "}");

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.body()).isEqualTo("{\"status\":400,\"message\":\"Validation failed\",\"data\":null,"
          + "\"errors\":{\"environment\":[\"" + ENVIRONMENT_RULE.replace("\"", "\\\"") + "\"]}}");
      assertThat(storedKeys(organisation)).isZero();
    }

    @Test
    void refusesAMisspelledFieldRatherThanIssueASandboxKey() {
      TestHttp.Response response = issue(organisation, "{\"env\":\"live\"}");

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactly("env");
      assertThat(storedKeys(organisation)).isZero();
    }

    @Test
    void refusesBodiesThatAreNotAJsonObjectAndCreatesNothing() {
      TestHttp.Response notAnObject = issue(organisation, "\"live\"");
      TestHttp.Response malformed = issue(organisation, "{\"environment\":");
      TestHttp.Response notJson = http.postJson("/admin/v1/organisations/" + organisation + "/api-keys",
          "environment=live", Map.of("Content-Type", "application/x-www-form-urlencoded",
              "X-Operator-Token", AuthFixtures.OPERATOR_TOKEN));

      assertThat(notAnObject.status()).isEqualTo(400);
      assertThat(malformed.status()).isEqualTo(400);
      assertThat(notJson.status()).isEqualTo(415);
      assertThat(List.of(notAnObject, malformed, notJson))
          .allSatisfy(response -> assertThat(response.json().get("data").isNull()).isTrue());
      assertThat(storedKeys(organisation)).isZero();
    }

    @Test
    void aLiveKeyForAnUnknownOrganisationIs404AndCreatesNothing() {
      String unknown = UUID.randomUUID().toString();

      TestHttp.Response response = issue(unknown, "{\"environment\":\"live\"}");

      assertThat(response.status()).isEqualTo(404);
      assertThat(storedKeys(unknown)).isZero();
    }

    @Test
    void asksTheOperatorTokenBeforeAnything() {
      TestHttp.Response response = http.postJson("/admin/v1/organisations/" + organisation + "/api-keys",
          "{\"environment\":\"live\"}", Map.of());

      assertThat(response.status()).isEqualTo(401);
      assertThat(storedKeys(organisation)).isZero();
    }
  }

  @Nested
  class ListKeys {

    @Test
    void showsEveryKeyWithItsEnvironmentAndStatusAndNothingOfItsSecret() {
      Credentials sandbox = fixtures.issueKey(organisation);
      Credentials live = fixtures.issueKey(organisation, "live");
      TestHttp.Response revoked = http.send("DELETE", "/admin/v1/organisations/" + organisation + "/api-keys/"
          + live.apiKey(), null, AuthFixtures.operator());
      assertThat(revoked.json().get("data").get("environment").asString()).isEqualTo("live");

      TestHttp.Response response = http.get("/admin/v1/organisations/" + organisation + "/api-keys",
          AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(200);
      JsonNode keys = response.json().get("data");
      assertThat(keys).hasSize(2);
      assertThat(keys.get(0).propertyNames())
          .containsExactly("apiKey", "organisationId", "environment", "status", "createdAt", "revokedAt");
      assertThat(keys.get(0).get("apiKey").asString()).isEqualTo(sandbox.apiKey());
      assertThat(keys.get(0).get("environment").asString()).isEqualTo("sandbox");
      assertThat(keys.get(0).get("status").asString()).isEqualTo("ACTIVE");
      assertThat(keys.get(0).get("revokedAt").isNull()).isTrue();
      assertThat(keys.get(1).get("apiKey").asString()).isEqualTo(live.apiKey());
      assertThat(keys.get(1).get("environment").asString()).isEqualTo("live");
      assertThat(keys.get(1).get("status").asString()).isEqualTo("REVOKED");
      assertThat(keys.get(1).get("revokedAt").isString()).isTrue();
      assertThat(response.body()).doesNotContain(sandbox.apiSecret(), live.apiSecret(), "secret", "Hash");
    }

    @Test
    void showsOnlyTheNamedOrganisationsKeys() {
      fixtures.issueKey(organisation, "live");
      String other = fixtures.newOrganisation();

      TestHttp.Response response = http.get("/admin/v1/organisations/" + other + "/api-keys", AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("data")).isEmpty();
    }

    @Test
    void answers404ForAnUnknownOrganisation() {
      TestHttp.Response response = http.get("/admin/v1/organisations/" + UUID.randomUUID() + "/api-keys",
          AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.json().get("message").asString()).isEqualTo("Organisation not found");
    }
  }

  @Nested
  class GetToken {

    @Test
    void aLiveKeyMintsTokensThatEveryVerifierReadsAsLive() throws Exception {
      JsonNode pair = fixtures.tokens(fixtures.issueKey(organisation, "live"));
      TokenVerifier verifier = platformVerifier();

      assertThat(verifier.verifyAccess(pair.get("access_token").asString()).environment())
          .isEqualTo(Environment.LIVE);
      assertThat(verifier.verify(pair.get("refresh_token").asString(), "refresh").environment())
          .isEqualTo(Environment.LIVE);
      assertThat(SignedJWT.parse(pair.get("access_token").asString()).getJWTClaimsSet().getClaim("env"))
          .isEqualTo("live");
      assertThat(storedFamily(pair.get("refresh_token").asString()).getString("environment")).isEqualTo("live");
    }

    @Test
    void aKeyIssuedWithoutAnEnvironmentMintsSandboxTokensThatSaySo() throws Exception {
      JsonNode pair = fixtures.tokens(fixtures.issueKey(organisation));

      assertThat(platformVerifier().verifyAccess(pair.get("access_token").asString()).environment())
          .isEqualTo(Environment.SANDBOX);
      assertThat(SignedJWT.parse(pair.get("access_token").asString()).getJWTClaimsSet().getClaim("env"))
          .isEqualTo("sandbox");
      assertThat(SignedJWT.parse(pair.get("refresh_token").asString()).getJWTClaimsSet().getClaim("env"))
          .isEqualTo("sandbox");
    }

    @Test
    void theTokenResponseKeepsTheSpecsShapeForALiveKey() {
      Credentials live = fixtures.issueKey(organisation, "live");

      JsonNode body = fixtures.getToken(live.apiKey(), live.apiSecret()).json();

      assertThat(body.propertyNames()).containsExactly("status", "data");
      assertThat(body.get("data").propertyNames())
          .containsExactly("access_token", "refresh_token", "expires_in", "refresh_expires_in");
    }

    @Test
    void aKeyStoredBeforeKeysHadAnEnvironmentIsASandboxKey() {
      Credentials old = fixtures.issueKey(organisation);
      database.getCollection("api_keys").updateOne(Filters.eq("_id", old.apiKey()), Updates.unset("environment"));

      JsonNode pair = fixtures.tokens(old);

      assertThat(platformVerifier().verifyAccess(pair.get("access_token").asString()).environment())
          .isEqualTo(Environment.SANDBOX);
      JsonNode listed = http.get("/admin/v1/organisations/" + organisation + "/api-keys", AuthFixtures.operator())
          .json().get("data").get(0);
      assertThat(listed.get("environment").asString()).isEqualTo("sandbox");
      assertThat(fixtures.refresh(pair.get("refresh_token").asString()).status()).isEqualTo(200);
    }
  }

  @Nested
  class RefreshToken {

    @Test
    void aRefreshKeepsTheLiveEnvironmentPairAfterPair() {
      JsonNode pair = fixtures.tokens(fixtures.issueKey(organisation, "live"));
      TokenVerifier verifier = platformVerifier();

      for (int i = 0; i < 3; i++) {
        TestHttp.Response response = fixtures.refresh(pair.get("refresh_token").asString());
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        pair = response.json().get("data");
        assertThat(verifier.verifyAccess(pair.get("access_token").asString()).environment())
            .isEqualTo(Environment.LIVE);
        assertThat(verifier.verify(pair.get("refresh_token").asString(), "refresh").environment())
            .isEqualTo(Environment.LIVE);
      }
    }

    @Test
    void aRefreshKeepsTheSandboxEnvironment() {
      JsonNode pair = fixtures.tokens(fixtures.issueKey(organisation));

      JsonNode next = fixtures.refresh(pair.get("refresh_token").asString()).json().get("data");

      assertThat(platformVerifier().verifyAccess(next.get("access_token").asString()).environment())
          .isEqualTo(Environment.SANDBOX);
    }

    @Test
    void anEditedRefreshTokenCannotSwitchEnvironment() {
      String refresh = fixtures.tokens(fixtures.issueKey(organisation)).get("refresh_token").asString();
      String promoted = editedPayload(refresh, "\"env\":\"sandbox\"", "\"env\":\"live\"");
      String claimless = editedPayload(refresh, "\"env\":\"sandbox\",", "");

      assertThat(promoted).isNotEqualTo(refresh);
      assertThat(List.of(promoted, claimless)).allSatisfy(token -> {
        TestHttp.Response response = fixtures.refresh(token);
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.body()).isEqualTo(INVALID_REFRESH_TOKEN);
      });
      // the edits spent nothing: the genuine token still buys its (sandbox) pair
      JsonNode next = fixtures.refresh(refresh).json().get("data");
      assertThat(platformVerifier().verifyAccess(next.get("access_token").asString()).environment())
          .isEqualTo(Environment.SANDBOX);
    }

    @Test
    void aLiveRefreshTokenSignedByAnotherKeyIsRefused() throws Exception {
      String refresh = fixtures.tokens(fixtures.issueKey(organisation)).get("refresh_token").asString();
      JWTClaimsSet genuine = SignedJWT.parse(refresh).getJWTClaimsSet();
      String family = genuine.getStringClaim("fam");
      String foreign = TestIssuer.shared().token(organisation, claims -> claims.claim("token_type", "refresh")
          .claim("fam", family).claim("env", "live").jwtID(genuine.getJWTID()));

      TestHttp.Response response = fixtures.refresh(foreign);

      assertThat(response.status()).isEqualTo(401);
      assertThat(fixtures.refresh(refresh).status()).isEqualTo(200);
    }

    /**
     * Were a token of the other environment ever signed for a family (our own key, misused), the family still spends
     * only in its own environment: the attempt is refused and ends the family, as any other misuse of it does.
     */
    @Test
    void aFamilyIsSpentOnlyInTheEnvironmentItStartedIn() throws Exception {
      Credentials sandbox = fixtures.issueKey(organisation);
      String refresh = fixtures.tokens(sandbox).get("refresh_token").asString();
      JWTClaimsSet genuine = SignedJWT.parse(refresh).getJWTClaimsSet();
      String crossed = minter.mint(OrganisationId.of(organisation), sandbox.apiKey(), Environment.LIVE,
          genuine.getStringClaim("fam"), genuine.getJWTID(), Instant.now()).refreshToken();

      TestHttp.Response response = fixtures.refresh(crossed);

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo(INVALID_REFRESH_TOKEN);
      assertThat(fixtures.refresh(refresh).status()).isEqualTo(401);
      assertThat(storedFamily(refresh).getBoolean("revoked")).isTrue();
    }

    @Test
    void aFamilyAndRefreshTokenFromBeforeEnvironmentsStaySandbox() throws Exception {
      String refresh = fixtures.tokens(fixtures.issueKey(organisation)).get("refresh_token").asString();
      JWTClaimsSet genuine = SignedJWT.parse(refresh).getJWTClaimsSet();
      database.getCollection("token_families").updateOne(Filters.eq("_id", genuine.getStringClaim("fam")),
          Updates.unset("environment"));
      String old = signedWithoutEnvironment(genuine);

      TestHttp.Response response = fixtures.refresh(old);

      assertThat(response.status()).as(response.body()).isEqualTo(200);
      String access = response.json().get("data").get("access_token").asString();
      assertThat(platformVerifier().verifyAccess(access).environment()).isEqualTo(Environment.SANDBOX);
      assertThat(SignedJWT.parse(access).getJWTClaimsSet().getClaim("env")).isEqualTo("sandbox");
    }

    @Test
    void aRefreshTokenWithoutTheClaimIsASandboxTokenAndSpendsNoLiveFamily() throws Exception {
      String refresh = fixtures.tokens(fixtures.issueKey(organisation, "live")).get("refresh_token").asString();
      String withoutClaim = signedWithoutEnvironment(SignedJWT.parse(refresh).getJWTClaimsSet());

      TestHttp.Response response = fixtures.refresh(withoutClaim);

      assertThat(response.status()).isEqualTo(401);
      assertThat(fixtures.refresh(refresh).status()).isEqualTo(401);
    }

    @Test
    void revokingALiveKeyEndsItsFamilies() {
      Credentials live = fixtures.issueKey(organisation, "live");
      String refresh = fixtures.tokens(live).get("refresh_token").asString();

      http.send("DELETE", "/admin/v1/organisations/" + organisation + "/api-keys/" + live.apiKey(), null,
          AuthFixtures.operator());

      assertThat(fixtures.refresh(refresh).status()).isEqualTo(401);
      assertThat(fixtures.getToken(live.apiKey(), live.apiSecret()).status()).isEqualTo(401);
    }
  }

  /** The token with its payload text edited and its original signature kept. */
  private static String editedPayload(String token, String from, String to) {
    String[] parts = token.split("\\.");
    String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
    assertThat(payload).contains(from);
    return parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
        .encodeToString(payload.replace(from, to).getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
  }

  /** The token's claims without {@code env}, signed by this service's active key: a token minted before the claim. */
  private String signedWithoutEnvironment(JWTClaimsSet claims) throws Exception {
    JWTClaimsSet.Builder old = new JWTClaimsSet.Builder();
    claims.getClaims().forEach((name, value) -> {
      if (!"env".equals(name)) {
        old.claim(name, value);
      }
    });
    SigningKeys.Active key = signingKeys.active();
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.kid())
        .type(JOSEObjectType.JWT).build(), old.build());
    jwt.sign(key.signer());
    assertThat(jwt.getJWTClaimsSet().getClaims()).doesNotContainKey("env");
    return jwt.serialize();
  }
}
