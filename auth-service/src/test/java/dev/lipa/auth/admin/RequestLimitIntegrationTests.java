package dev.lipa.auth.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import com.nimbusds.jwt.SignedJWT;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthFixtures.Credentials;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.testsupport.TestHttp;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The organisation's own request limit ({@code requestsPerSecond}): set by the platform team, shown in the
 * organisation view, and carried as the {@code rps} claim of access tokens minted after the change.
 */
@AuthServiceIntegrationTest
class RequestLimitIntegrationTests {

  @LocalServerPort
  int port;

  AuthFixtures fixtures;
  Credentials credentials;

  @BeforeEach
  void setUp() throws Exception {
    fixtures = new AuthFixtures(port);
    credentials = fixtures.issueKey(fixtures.newOrganisation());
  }

  TestHttp.Response patch(String body) {
    return fixtures.http().send("PATCH", "/admin/v1/organisations/" + credentials.organisationId(), body,
        Map.of("X-Operator-Token", AuthFixtures.OPERATOR_TOKEN, "Content-Type", "application/json"));
  }

  static Object rpsClaim(String token) throws Exception {
    return SignedJWT.parse(token).getJWTClaimsSet().getClaim(TokenClaims.REQUESTS_PER_SECOND);
  }

  @Nested
  class PatchOrganisation {

    @Test
    void setsTheLimitShowsItAndPutsItInTokensMintedAfterwards() throws Exception {
      JsonNode before = fixtures.tokens(credentials);
      assertThat(rpsClaim(before.get("access_token").asString())).isNull();

      TestHttp.Response changed = patch("{\"requestsPerSecond\":500}");

      assertThat(changed.status()).as(changed.body()).isEqualTo(200);
      assertThat(changed.json().path("data").path("requestsPerSecond").asInt()).isEqualTo(500);
      JsonNode after = fixtures.tokens(credentials);
      assertThat(rpsClaim(after.get("access_token").asString())).isEqualTo(500L);
      // the refresh token is no access token: no limit in it; its next pair carries the limit too
      assertThat(rpsClaim(after.get("refresh_token").asString())).isNull();
      JsonNode refreshed = fixtures.refresh(after.get("refresh_token").asString()).json().get("data");
      assertThat(rpsClaim(refreshed.get("access_token").asString())).isEqualTo(500L);
    }

    @Test
    void nullGoesBackToTheDefault() throws Exception {
      patch("{\"requestsPerSecond\":20}");

      TestHttp.Response cleared = patch("{\"requestsPerSecond\":null}");

      assertThat(cleared.status()).isEqualTo(200);
      assertThat(cleared.json().path("data").path("requestsPerSecond").isNull()).isTrue();
      assertThat(rpsClaim(fixtures.tokens(credentials).get("access_token").asString())).isNull();
      TestHttp.Response view = fixtures.http().get("/admin/v1/organisations/" + credentials.organisationId(),
          AuthFixtures.operator());
      assertThat(view.json().path("data").has("requestsPerSecond")).isTrue();
    }

    static Stream<Arguments> invalid() {
      return Stream.of(
          Arguments.of(named("zero", "0")),
          Arguments.of(named("negative", "-5")),
          Arguments.of(named("fractional", "12.5")),
          Arguments.of(named("a string", "\"50\"")),
          Arguments.of(named("above the platform's ceiling", "100001")),
          Arguments.of(named("a huge exponent", "1e100000000")),
          Arguments.of(named("beyond a long", "123456789012345678901234567890")),
          Arguments.of(named("an object", "{}")));
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void refusesWhatIsNoWholeNumberInRangeNamingTheField(String value) {
      TestHttp.Response response = patch("{\"requestsPerSecond\":" + value + "}");

      assertThat(response.status()).as(response.body()).isEqualTo(400);
      assertThat(response.json().path("errors").has("requestsPerSecond")).isTrue();
      assertThat(fixtures.http().get("/admin/v1/organisations/" + credentials.organisationId(),
          AuthFixtures.operator()).json().path("data").path("requestsPerSecond").isNull()).isTrue();
    }
  }
}
