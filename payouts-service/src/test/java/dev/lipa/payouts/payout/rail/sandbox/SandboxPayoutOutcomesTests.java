package dev.lipa.payouts.payout.rail.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutRailOutcome;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SandboxPayoutOutcomesTests {

  private static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");
  private static final ZoneId ZONE = ZoneId.of("Africa/Nairobi");
  private static final OrganisationId ORG = OrganisationId.of("org");

  private static PayoutOrder toPhone(String phone) {
    return new PayoutOrder(ORG, RequestId.random(), "sendmoney", phone, null, null, BigDecimal.TEN, "KSH", null);
  }

  private static PayoutOrder toBusiness(String businessNumber) {
    return new PayoutOrder(ORG, RequestId.random(), "till", null, businessNumber, "A1", BigDecimal.TEN, "KSH",
        null);
  }

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(named("KE insufficient funds", toPhone("254700000001")), 1),
        Arguments.of(named("KE invalid account", toPhone("254700000404")), 2040),
        Arguments.of(named("KE timeout", toPhone("254700000408")), 1037),
        Arguments.of(named("TZ invalid account", toPhone("255710000404")), 2040),
        Arguments.of(named("UG timeout", toPhone("256700000408")), 1037),
        Arguments.of(named("business insufficient funds", toBusiness("000001")), 1),
        Arguments.of(named("business invalid account", toBusiness("000404")), 2040),
        Arguments.of(named("business timeout", toBusiness("000408")), 1037));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void magicValuesFailWithTheirResultCode(PayoutOrder order, int code) {
    PayoutRailOutcome outcome = SandboxPayoutOutcomes.decide(order, NOW, ZONE);

    assertThat(outcome.successful()).isFalse();
    assertThat(outcome.resultCode()).isEqualTo(code);
    assertThat(outcome.transactionReceipt()).isNull();
  }

  @Test
  void everyOtherNumberSucceedsWithTheSameReceiptEveryTime() {
    PayoutOrder order = toPhone("254712345678");

    PayoutRailOutcome first = SandboxPayoutOutcomes.decide(order, NOW, ZONE);
    PayoutRailOutcome again = SandboxPayoutOutcomes.decide(order, NOW, ZONE);

    assertThat(first.successful()).isTrue();
    assertThat(first.transactionReceipt()).matches("[A-Z][A-Z0-9]{9}").isEqualTo(again.transactionReceipt());
    assertThat(first.conversationId()).startsWith("AG_20260601_");
    assertThat(first.receiverName()).isEqualTo("254712345678 - SANDBOX RECIPIENT");
  }
}
