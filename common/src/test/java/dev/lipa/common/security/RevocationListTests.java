package dev.lipa.common.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

class RevocationListTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Instant CUT_OFF = Instant.parse("2026-03-01T10:00:00.500Z");
  private static final RevocationList LIST = new RevocationList("v1", Map.of("lk_revoked", CUT_OFF),
      Map.of("org-revoked", CUT_OFF));

  @Nested
  class Revokes {

    @Test
    void everyTokenOfARevokedKeyWhenEverItWasIssued() {
      assertThat(LIST.revokes(token("org-a", "lk_revoked", CUT_OFF.minusSeconds(100)))).isTrue();
      assertThat(LIST.revokes(token("org-a", "lk_revoked", CUT_OFF.plusSeconds(100)))).isTrue();
      assertThat(LIST.revokes(token("org-a", "lk_other", CUT_OFF.minusSeconds(100)))).isFalse();
    }

    @Test
    void anOrganisationsTokensIssuedUpToTheCutOffIncludingItsSecond() {
      assertThat(LIST.revokes(token("org-revoked", "lk_any", CUT_OFF.minusSeconds(250)))).isTrue();
      // iat is whole seconds: a token of 10:00:00 may have been minted at 10:00:00.400, before the revocation
      assertThat(LIST.revokes(token("org-revoked", "lk_any", Instant.parse("2026-03-01T10:00:00Z")))).isTrue();
      assertThat(LIST.revokes(token("org-revoked", "lk_any", Instant.parse("2026-03-01T10:00:01Z")))).isFalse();
    }

    @Test
    void nothingOfAnotherOrganisation() {
      assertThat(LIST.revokes(token("org-other", "lk_any", CUT_OFF.minusSeconds(10)))).isFalse();
      assertThat(LIST.revokes(token("org-other", null, CUT_OFF.minusSeconds(10)))).isFalse();
    }

    @Test
    void aTokenWithoutKeyClaimOnlyThroughItsOrganisation() {
      assertThat(LIST.revokes(token("org-revoked", null, CUT_OFF.minusSeconds(10)))).isTrue();
      assertThat(LIST.revokes(token("org-a", null, CUT_OFF.minusSeconds(10)))).isFalse();
    }

    @Test
    void nothingWhenEmpty() {
      assertThat(RevocationList.EMPTY.revokes(token("org-revoked", "lk_revoked", CUT_OFF))).isFalse();
    }
  }

  @Nested
  class Parse {

    @Test
    void readsTheFeedsBody() {
      RevocationList list = RevocationList.parse("""
          {"status":200,"message":"Revocations fetched","data":{"version":"abc",
           "apiKeys":[{"apiKey":"lk_1","organisationId":"org-1","revokedAt":"2026-03-01T10:00:00.500Z"}],
           "organisations":[{"organisationId":"org-2","revokedBefore":"2026-03-01T11:00:00Z"}]}}""", JSON);

      assertThat(list.version()).isEqualTo("abc");
      assertThat(list.apiKeys()).containsExactly(Map.entry("lk_1", CUT_OFF));
      assertThat(list.organisations()).containsExactly(Map.entry("org-2", Instant.parse("2026-03-01T11:00:00Z")));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "not json",
        "{\"data\":null}",
        "{\"data\":{\"apiKeys\":[],\"organisations\":[]}}",
        "{\"data\":{\"version\":\"v\",\"apiKeys\":{},\"organisations\":[]}}",
        "{\"data\":{\"version\":\"v\",\"apiKeys\":[{\"apiKey\":\"k\"}],\"organisations\":[]}}",
        "{\"data\":{\"version\":\"v\",\"apiKeys\":[],\"organisations\":[{\"organisationId\":\"o\",\"revokedBefore\":\"yesterday\"}]}}"})
    void refusesAnythingElse(String body) {
      assertThatThrownBy(() -> RevocationList.parse(body, JSON)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  private static VerifiedToken token(String organisationId, String apiKey, Instant issuedAt) {
    return new VerifiedToken(organisationId, "jti", TokenClaims.ACCESS, null, issuedAt.plusSeconds(300), null, apiKey,
        issuedAt, null);
  }
}
