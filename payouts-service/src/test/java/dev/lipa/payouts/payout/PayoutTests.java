package dev.lipa.payouts.payout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PayoutTests {

  private static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");

  private static Payout aPendingPayout(String callbackUrl) {
    PayoutRequest request = new PayoutRequest(PayoutKind.SEND_MONEY, Currency.KSH, new BigDecimal("10"), callbackUrl,
        null, "254712345678", null, null, "r", "o", null, null, null, null, null);
    return Payout.accept(1, RequestId.random(), OrganisationId.of("org"), request, "1-2-3", NOW);
  }

  private static Payout.Result success() {
    return new Payout.Result("AG_1", 0, "ok", 0, "done", "ABCDEFGHIJ", "254712345678 - X", UUID.randomUUID());
  }

  private static Payout.Result failure() {
    return new Payout.Result("AG_1", 0, "ok", 2040, "invalid", null, null, UUID.randomUUID());
  }

  @Test
  void acceptingRecordsTheAcceptedEvent() {
    Payout payout = aPendingPayout("https://m.example/cb");

    assertThat(payout.status()).isEqualTo(PayoutStatus.PENDING);
    assertThat(payout.events()).singleElement().isInstanceOf(PayoutEvent.Accepted.class);
  }

  @Test
  void anOutcomeCompletesThePayoutOnceAndAsksForTheCallback() {
    Payout payout = Payout.restore(aPendingPayout("https://m.example/cb").details(), PayoutStatus.PENDING, NOW, null);

    payout.succeed(success(), NOW.plusSeconds(3));

    assertThat(payout.status()).isEqualTo(PayoutStatus.SUCCESS);
    assertThat(payout.events()).hasSize(2).last().isInstanceOf(PayoutEvent.CallbackRequested.class);
    assertThatThrownBy(() -> payout.fail(failure(), NOW.plusSeconds(4)))
        .isInstanceOf(IllegalTransitionException.class);
    assertThatThrownBy(() -> payout.succeed(success(), NOW.plusSeconds(4)))
        .isInstanceOf(IllegalTransitionException.class);
  }

  @Test
  void refusesASuccessWithoutAReceiptAndAFailureWithResultCodeZero() {
    Payout payout = aPendingPayout(null);

    assertThatThrownBy(() -> payout.succeed(failure(), NOW)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> payout.fail(success(), NOW)).isInstanceOf(IllegalArgumentException.class);
    payout.fail(failure(), NOW);
    assertThat(payout.status()).isEqualTo(PayoutStatus.FAILED);
  }
}
