package dev.lipa.payouts.payout.rail.daraja;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.payouts.PayoutsIntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A sandbox payouts-service (the module's shared context) has none of the Daraja rail: its operator API and its
 * result addresses are unknown paths, whoever asks.
 */
class SandboxStackIntegrationTests extends PayoutsIntegrationTest {

  @Test
  void answersTheDarajaOperatorApiAndResultAddressesAsUnknownPaths() {
    String reconciliations = "/admin/v1/daraja/balance-reconciliations";

    assertThat(http().get(reconciliations, OPERATOR).status()).isEqualTo(404);
    assertThat(http().postJson(reconciliations, "", OPERATOR).status()).isEqualTo(404);
    assertThat(http().get(reconciliations + "/0b1c2d3e-0000-4000-8000-000000000000", OPERATOR).status())
        .isEqualTo(404);
    assertThat(http().get("/admin/v1/daraja/payout-shortcodes", OPERATOR).status()).isEqualTo(404);
    assertThat(http().postJson("/daraja/v1/results/any-segment", "{}",
        Map.of("X-Forwarded-For", "196.201.214.200")).status()).isEqualTo(404);
  }
}
