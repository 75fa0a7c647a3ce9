package dev.lipa.payouts.payout.rail.daraja;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The arithmetic of a reconciliation: exact decimals, whatever their scale, and what counts as matched. */
class FundsComparisonTests {

  private static BigDecimal d(String value) {
    return new BigDecimal(value);
  }

  static Stream<Arguments> comparisons() {
    return Stream.of(
        Arguments.of(Named.of("equal sums, written with other scales", d("1E+3")), d("1000.00"), d("0"), "0.00",
            true),
        Arguments.of(Named.of("a shortfall payouts in flight explain", d("850")), d("1000"), d("150.00"), "-150.00",
            true),
        Arguments.of(Named.of("a shortfall of exactly every payout in flight", d("0.00")), d("150.5"), d("150.50"),
            "-150.50", true),
        Arguments.of(Named.of("a shortfall one cent beyond the payouts in flight", d("849.99")), d("1000"),
            d("150"), "-150.01", false),
        Arguments.of(Named.of("any shortfall with nothing in flight", d("999.9999")), d("1000"), d("0"), "-0.0001",
            false),
        Arguments.of(Named.of("a surplus of one cent, whatever is in flight", d("1000.01")), d("1000"), d("500"),
            "0.01", false),
        Arguments.of(Named.of("shortcodes owing M-Pesa (a negative balance)", d("-20")), d("0"), d("0"), "-20.00",
            false),
        Arguments.of(Named.of("sums beyond a double's precision", d("12345678901234567.89")),
            d("12345678901234567.88"), d("0"), "0.01", false));
  }

  @ParameterizedTest
  @MethodSource("comparisons")
  void comparesWhatIsHeldWithWhatIsOwedExactly(BigDecimal held, BigDecimal owed, BigDecimal inFlight,
      String difference, boolean matched) {
    FundsComparison comparison = FundsComparison.of(held, owed, BigDecimal.ZERO, inFlight);

    assertThat(comparison.difference().toPlainString()).isEqualTo(difference);
    assertThat(comparison.matched()).isEqualTo(matched);
  }

  @Test
  void expectsThePlatformsOwnFundsBesidesWhatTheLedgerOwes() {
    FundsComparison declared = FundsComparison.of(d("1500000"), d("1000000"), d("500000"), d("0"));
    FundsComparison undeclared = FundsComparison.of(d("1500000"), d("1000000"), d("0"), d("0"));
    FundsComparison spent = FundsComparison.of(d("1499850"), d("1000000"), d("500000"), d("0"));

    assertThat(declared.matched()).isTrue();
    assertThat(undeclared.matched()).isFalse();
    assertThat(undeclared.difference().toPlainString()).isEqualTo("500000.00");
    assertThat(spent.matched()).as("fees paid from the float").isFalse();
    assertThat(spent.difference().toPlainString()).isEqualTo("-150.00");
  }

  @Test
  void showsAmountsWithAtLeastTwoDecimalsAndNeverRoundsThem() {
    assertThat(FundsComparison.money(d("1E+3")).toPlainString()).isEqualTo("1000.00");
    assertThat(FundsComparison.money(d("150.5")).toPlainString()).isEqualTo("150.50");
    assertThat(FundsComparison.money(d("-0.50000")).toPlainString()).isEqualTo("-0.50");
    assertThat(FundsComparison.money(d("0.0001")).toPlainString()).isEqualTo("0.0001");
    assertThat(FundsComparison.money(d("0E-6176")).toPlainString()).isEqualTo("0.00");
  }

  @Test
  void keepsTheSumsItCompared() {
    FundsComparison comparison = FundsComparison.of(d("228037"), d("228187.00"), d("0"), d("150"));

    assertThat(comparison.held().toPlainString()).isEqualTo("228037.00");
    assertThat(comparison.owed().toPlainString()).isEqualTo("228187.00");
    assertThat(comparison.inFlight().toPlainString()).isEqualTo("150.00");
  }

  @Test
  void refusesANegativeAmountInFlight() {
    assertThatThrownBy(() -> FundsComparison.of(d("0"), d("0"), d("0"), d("-1")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
