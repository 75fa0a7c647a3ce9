package dev.lipa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lipa.common.security.RevocationFeed;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Revocation within seconds at the gateway: a token accepted (and cached as verified) is refused once the issuer's
 * revocation feed (the test issuer's real local HTTP server, polled at the platform's default 2 s) lists its key or
 * its organisation, and never reaches an upstream again.
 */
class RevocationIntegrationTests extends GatewayIntegrationTest {

  private static final Duration WITHIN_SECONDS = Duration.ofSeconds(10);
  private static final String STK_ALL = "/api/sandbox/v1/stk/all";

  @Nested
  class RevokedApiKey {

    @Test
    void itsTokenIsRefusedWithinSecondsAfterItWasAcceptedAndNoOtherIs() {
      String organisation = UUID.randomUUID().toString();
      String leakedKey = "lk_sbx_leaked_" + UUID.randomUUID();
      String leaked = token(organisation, leakedKey);
      String sameOrganisationOtherKey = token(organisation, "lk_sbx_kept_" + UUID.randomUUID());
      String otherOrganisation = token(UUID.randomUUID().toString(), "lk_sbx_other_" + UUID.randomUUID());
      assertThat(get(leaked).status()).isEqualTo(200);
      assertThat(get(leaked).status()).isEqualTo(200); // now admitted from the cache of verified tokens

      ISSUER.revokeApiKey(leakedKey);

      await().atMost(WITHIN_SECONDS).until(() -> get(leaked).status() == 401);
      int before = UPSTREAMS.calls("collections-service");
      TestHttp.Response refused = get(leaked);
      assertThat(refused.body()).isEqualTo(TokenCheckIntegrationTests.UNAUTHORIZED);
      assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
      assertThat(UPSTREAMS.calls("collections-service")).isEqualTo(before);
      assertThat(get(sameOrganisationOtherKey).status()).isEqualTo(200);
      assertThat(get(otherOrganisation).status()).isEqualTo(200);
    }
  }

  @Nested
  class RevokedOrganisationTokens {

    @Test
    void everyTokenIssuedBeforeIsRefusedWithinSecondsAndLaterOnesAndOtherOrganisationsPass() {
      String organisation = UUID.randomUUID().toString();
      String first = token(organisation, "lk_sbx_a_" + UUID.randomUUID());
      String second = token(organisation, "lk_sbx_b_" + UUID.randomUUID());
      String otherOrganisation = token(UUID.randomUUID().toString(), "lk_sbx_c_" + UUID.randomUUID());
      assertThat(get(first).status()).isEqualTo(200);
      assertThat(get(second).status()).isEqualTo(200);

      ISSUER.revokeOrganisation(organisation);

      await().atMost(WITHIN_SECONDS).until(() -> get(first).status() == 401 && get(second).status() == 401);
      assertThat(get(otherOrganisation).status()).isEqualTo(200);
      Instant later = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
      String issuedAfter = ISSUER.token(organisation, c -> c.issueTime(Date.from(later))
          .notBeforeTime(Date.from(later)).claim(TokenClaims.API_KEY, "lk_sbx_a_new"));
      assertThat(get(issuedAfter).status()).isEqualTo(200);
    }
  }

  @Nested
  class Feed {

    @Test
    void isReadWithTheInternalToken() {
      await().atMost(WITHIN_SECONDS).until(() -> ISSUER.internalTokensSeen().contains(INTERNAL_TOKEN));
    }

    @Test
    void isNotRoutedByTheGateway() {
      int before = UPSTREAMS.totalCalls();

      TestHttp.Response response = http().get(RevocationFeed.PATH, Map.of("X-Internal-Token", INTERNAL_TOKEN));

      assertThat(response.status()).isEqualTo(404);
      assertThat(UPSTREAMS.totalCalls()).isEqualTo(before);
    }
  }

  private TestHttp.Response get(String token) {
    return http().get(STK_ALL, TestHttp.bearer(token));
  }

  private static String token(String organisation, String apiKey) {
    return ISSUER.token(organisation, c -> c.claim(TokenClaims.API_KEY, apiKey));
  }
}
