package dev.lipa.auth.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthFixtures.Credentials;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.security.InvalidTokenException;
import dev.lipa.common.security.JwksKeys;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.security.VerifiedToken;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@AuthServiceIntegrationTest
class TokenEndpointsIntegrationTests {

  private static final String INVALID_CREDENTIALS =
      "{\"status\":\"UNAUTHORIZED\",\"message\":\"Invalid API credentials\",\"data\":null}";
  private static final String INVALID_REFRESH_TOKEN =
      "{\"status\":\"UNAUTHORIZED\",\"message\":\"Invalid refresh token\",\"data\":null}";

  @LocalServerPort
  int port;

  AuthFixtures fixtures;
  TestHttp http;
  Credentials credentials;

  @BeforeEach
  void setUp() {
    fixtures = new AuthFixtures(port);
    http = fixtures.http();
    credentials = fixtures.issueKey(fixtures.newOrganisation());
  }

  /** A verifier like every other service's: the JWKS fetched over HTTP from this service. */
  private TokenVerifier platformVerifier() {
    JwksKeys keys = new JwksKeys(URI.create("http://127.0.0.1:" + port + "/.well-known/jwks.json"),
        Clock.systemUTC(), Duration.ofSeconds(10));
    return new TokenVerifier(keys, "lipa-auth", "lipa-api", Clock.systemUTC(), Duration.ofMinutes(5));
  }

  @Nested
  class GetToken {

    @Test
    void exchangesCredentialsForAPairInTheSpecsEnvelope() {
      TestHttp.Response response = fixtures.getToken(credentials.apiKey(), credentials.apiSecret());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
          type -> assertThat(type).startsWith("application/json"));
      assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
      JsonNode body = response.json();
      assertThat(body.propertyNames()).containsExactly("status", "data");
      assertThat(body.get("status").asString()).isEqualTo("OK");
      JsonNode data = body.get("data");
      assertThat(data.propertyNames())
          .containsExactly("access_token", "refresh_token", "expires_in", "refresh_expires_in");
      assertThat(data.get("expires_in").isIntegralNumber()).isTrue();
      assertThat(data.get("expires_in").asInt()).isEqualTo(300);
      assertThat(data.get("refresh_expires_in").asInt()).isEqualTo(1800);
    }

    @Test
    void accessTokenCarriesThePlatformClaimsAndVerifiesAgainstTheJwks() throws Exception {
      Instant before = Instant.now().minusSeconds(1);
      JsonNode data = fixtures.tokens(credentials);
      SignedJWT access = SignedJWT.parse(data.get("access_token").asString());
      JWTClaimsSet claims = access.getJWTClaimsSet();

      assertThat(access.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.ES256);
      assertThat(access.getHeader().getType()).isEqualTo(JOSEObjectType.JWT);
      assertThat(access.getHeader().getKeyID()).isNotBlank();
      assertThat(claims.getIssuer()).isEqualTo("lipa-auth");
      assertThat(claims.getAudience()).containsExactly("lipa-api");
      assertThat(claims.getSubject()).isEqualTo(credentials.organisationId());
      assertThat(claims.getClaim("token_type")).isEqualTo("access");
      assertThat(claims.getJWTID()).isNotBlank();
      assertThat(claims.getIssueTime().toInstant()).isAfterOrEqualTo(before.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
      assertThat(claims.getNotBeforeTime()).isEqualTo(claims.getIssueTime());
      assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()))
          .isEqualTo(Duration.ofSeconds(300));

      VerifiedToken verified = platformVerifier().verifyAccess(data.get("access_token").asString());
      assertThat(verified.organisationId()).isEqualTo(credentials.organisationId());
    }

    @Test
    void refreshTokenIsOfTypeRefreshWithAFamily() throws Exception {
      JsonNode data = fixtures.tokens(credentials);
      JWTClaimsSet claims = SignedJWT.parse(data.get("refresh_token").asString()).getJWTClaimsSet();

      assertThat(claims.getClaim("token_type")).isEqualTo("refresh");
      assertThat(claims.getStringClaim("fam")).isNotBlank();
      assertThat(Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()))
          .isEqualTo(Duration.ofSeconds(1800));
      TokenVerifier verifier = platformVerifier();
      assertThatThrownBy(() -> verifier.verifyAccess(data.get("refresh_token").asString()))
          .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void wrongKeyWrongSecretAndRevokedKeyGetTheSame401() {
      Credentials revoked = fixtures.issueKey(credentials.organisationId());
      http.send("DELETE", "/admin/v1/organisations/" + revoked.organisationId() + "/api-keys/" + revoked.apiKey(),
          null, AuthFixtures.operator());

      List<TestHttp.Response> answers = List.of(
          fixtures.getToken("lk_sbx_doesnotexist0000000000000000000", credentials.apiSecret()),
          fixtures.getToken(credentials.apiKey(), credentials.apiSecret() + "x"),
          fixtures.getToken(credentials.apiKey(), fixtures.issueKey(credentials.organisationId()).apiSecret()),
          fixtures.getToken(revoked.apiKey(), revoked.apiSecret()));

      assertThat(answers).allSatisfy(answer -> {
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.body()).isEqualTo(INVALID_CREDENTIALS);
      });
    }

    @Test
    void malformedJsonIs400InTheTokenEnvelope() {
      TestHttp.Response response = http.postJson("/api/v1/get-token", "{\"apiKey\": \"k\", ", Map.of());

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.body()).isEqualTo("{\"status\":\"BAD_REQUEST\",\"message\":\"The request body is missing or"
          + " is not valid JSON\",\"data\":null,\"errors\":{\"body\":[\"body must be a JSON object\"]}}");
    }

    @Test
    void duplicateFieldsAreMalformed() {
      TestHttp.Response response = http.postJson("/api/v1/get-token",
          "{\"apiKey\":\"k\",\"apiKey\":\"" + credentials.apiKey() + "\",\"apiSecret\":\"s\"}", Map.of());

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("status").asString()).isEqualTo("BAD_REQUEST");
    }

    @Test
    void emptyBodyIs400() {
      TestHttp.Response response = http.postJson("/api/v1/get-token", "", Map.of());

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("status").asString()).isEqualTo("BAD_REQUEST");
    }

    @Test
    void missingAndMistypedFieldsAreNamed() {
      TestHttp.Response response = http.postJson("/api/v1/get-token", "{\"apiSecret\":42}", Map.of());

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.body()).isEqualTo("{\"status\":\"BAD_REQUEST\",\"message\":\"Validation failed\","
          + "\"data\":null,\"errors\":{\"apiKey\":[\"apiKey is required\"],"
          + "\"apiSecret\":[\"apiSecret must be a string\"]}}");
    }

    @Test
    void nonJsonContentTypeIs415InTheTokenEnvelope() {
      TestHttp.Response response = http.postJson("/api/v1/get-token",
          "apiKey=" + credentials.apiKey() + "&apiSecret=" + credentials.apiSecret(),
          Map.of("Content-Type", "application/x-www-form-urlencoded"));
      TestHttp.Response plain = http.postJson("/api/v1/get-token", "{}", Map.of("Content-Type", "text/plain"));

      assertThat(List.of(response, plain)).allSatisfy(answer -> {
        assertThat(answer.status()).isEqualTo(415);
        assertThat(answer.body()).isEqualTo("{\"status\":\"UNSUPPORTED_MEDIA_TYPE\","
            + "\"message\":\"Content-Type must be application/json\",\"data\":null}");
      });
    }
  }

  @Nested
  class RefreshToken {

    @Test
    void aRefreshTokenBuysANewPairOnceInTheSameFamily() throws Exception {
      JsonNode first = fixtures.tokens(credentials);

      TestHttp.Response response = fixtures.refresh(first.get("refresh_token").asString());

      assertThat(response.status()).as(response.body()).isEqualTo(200);
      JsonNode body = response.json();
      assertThat(body.propertyNames()).containsExactly("status", "data");
      JsonNode second = body.get("data");
      assertThat(second.get("expires_in").asInt()).isEqualTo(300);
      assertThat(second.get("refresh_expires_in").asInt()).isEqualTo(1800);
      JWTClaimsSet before = SignedJWT.parse(first.get("refresh_token").asString()).getJWTClaimsSet();
      JWTClaimsSet after = SignedJWT.parse(second.get("refresh_token").asString()).getJWTClaimsSet();
      assertThat(after.getStringClaim("fam")).isEqualTo(before.getStringClaim("fam"));
      assertThat(after.getJWTID()).isNotEqualTo(before.getJWTID());
      assertThat(after.getSubject()).isEqualTo(credentials.organisationId());
      assertThat(platformVerifier().verifyAccess(second.get("access_token").asString()).organisationId())
          .isEqualTo(credentials.organisationId());
      assertThat(fixtures.refresh(second.get("refresh_token").asString()).status()).isEqualTo(200);
    }

    @Test
    void reusingASpentRefreshTokenRevokesTheWholeFamily() {
      JsonNode first = fixtures.tokens(credentials);
      JsonNode second = fixtures.refresh(first.get("refresh_token").asString()).json().get("data");

      TestHttp.Response reuse = fixtures.refresh(first.get("refresh_token").asString());
      TestHttp.Response successor = fixtures.refresh(second.get("refresh_token").asString());

      assertThat(reuse.status()).isEqualTo(401);
      assertThat(reuse.body()).isEqualTo(INVALID_REFRESH_TOKEN);
      assertThat(successor.status()).isEqualTo(401);
      assertThat(successor.body()).isEqualTo(INVALID_REFRESH_TOKEN);
    }

    @Test
    void otherFamiliesOfTheOrganisationLiveOn() {
      JsonNode victim = fixtures.tokens(credentials);
      JsonNode other = fixtures.tokens(credentials);
      fixtures.refresh(victim.get("refresh_token").asString());
      fixtures.refresh(victim.get("refresh_token").asString());

      assertThat(fixtures.refresh(other.get("refresh_token").asString()).status()).isEqualTo(200);
    }

    @Test
    void anAccessTokenIsNotARefreshToken() {
      JsonNode tokens = fixtures.tokens(credentials);

      TestHttp.Response response = fixtures.refresh(tokens.get("access_token").asString());

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo(INVALID_REFRESH_TOKEN);
    }

    @Test
    void tamperedAndForeignTokensAreRefused() {
      String refresh = fixtures.tokens(credentials).get("refresh_token").asString();
      String[] parts = refresh.split("\\.");
      String otherSubject = fixtures.newOrganisation();
      String tampered = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
          new String(java.util.Base64.getUrlDecoder().decode(parts[1]), java.nio.charset.StandardCharsets.UTF_8)
              .replace(credentials.organisationId(), otherSubject).getBytes(java.nio.charset.StandardCharsets.UTF_8))
          + "." + parts[2];
      // a well-formed refresh token signed by a key that is not ours
      String foreign = TestIssuer.shared().token(credentials.organisationId(),
          claims -> claims.claim("token_type", "refresh").claim("fam", "f"));

      assertThat(List.of(tampered, foreign, "not-a-jwt")).allSatisfy(token -> {
        TestHttp.Response response = fixtures.refresh(token);
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.body()).isEqualTo(INVALID_REFRESH_TOKEN);
      });
      assertThat(fixtures.refresh(refresh).status()).isEqualTo(200);
    }

    @Test
    void revokingTheApiKeyEndsItsFamilies() {
      JsonNode tokens = fixtures.tokens(credentials);
      http.send("DELETE", "/admin/v1/organisations/" + credentials.organisationId() + "/api-keys/"
          + credentials.apiKey(), null, AuthFixtures.operator());

      assertThat(fixtures.refresh(tokens.get("refresh_token").asString()).status()).isEqualTo(401);
    }

    @Test
    void fieldRulesAndMediaTypeUseTheTokenEnvelope() {
      TestHttp.Response missing = http.postJson("/api/v1/refresh-token", "{\"refreshToken\":\"x\"}", Map.of());
      TestHttp.Response malformed = http.postJson("/api/v1/refresh-token", "{", Map.of());
      TestHttp.Response notJson = http.postJson("/api/v1/refresh-token", "x", Map.of("Content-Type", "text/plain"));

      assertThat(missing.status()).isEqualTo(400);
      assertThat(missing.body()).isEqualTo("{\"status\":\"BAD_REQUEST\",\"message\":\"Validation failed\","
          + "\"data\":null,\"errors\":{\"refresh_token\":[\"refresh_token is required\"]}}");
      assertThat(malformed.status()).isEqualTo(400);
      assertThat(malformed.json().get("status").asString()).isEqualTo("BAD_REQUEST");
      assertThat(notJson.status()).isEqualTo(415);
      assertThat(notJson.json().get("status").asString()).isEqualTo("UNSUPPORTED_MEDIA_TYPE");
    }
  }
}
