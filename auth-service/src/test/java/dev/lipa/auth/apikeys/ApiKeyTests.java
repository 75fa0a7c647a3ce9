package dev.lipa.auth.apikeys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ApiKeyTests {

  private static final Instant ISSUED = Instant.parse("2026-01-01T10:00:00Z");

  @Test
  void issuedKeyIsActive() {
    ApiKey key = ApiKey.issue("lk_sbx_a", OrganisationId.of("org"), Environment.SANDBOX, new byte[32], ISSUED);

    assertThat(key.isActive()).isTrue();
    assertThat(key.revokedAt()).isNull();
  }

  @Test
  void revokingRecordsWhenAndIsFinal() {
    Instant revokedAt = ISSUED.plusSeconds(60);

    ApiKey revoked = ApiKey.issue("lk_sbx_a", OrganisationId.of("org"), Environment.SANDBOX, new byte[32], ISSUED).revoke(revokedAt);

    assertThat(revoked.status()).isEqualTo(ApiKeyStatus.REVOKED);
    assertThat(revoked.revokedAt()).isEqualTo(revokedAt);
    assertThat(revoked.revoke(revokedAt.plusSeconds(60))).isSameAs(revoked);
  }

  @Test
  void aKeyKeepsItsEnvironmentWhenRevoked() {
    ApiKey live = ApiKey.issue("lk_live_a", OrganisationId.of("org"), Environment.LIVE, new byte[32], ISSUED);

    assertThat(live.revoke(ISSUED.plusSeconds(60)).environment()).isEqualTo(Environment.LIVE);
    assertThat(live.summary().environment()).isEqualTo(Environment.LIVE);
  }
}
