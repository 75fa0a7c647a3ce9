package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The medians and spreads of repeated runs, and the ratio of sustained rates. */
class SpreadTests {

  @Test
  void takesTheMiddleOfThreeRunsAndTheirLowestAndHighest() {
    Spread spread = Spread.of(List.of(1_210.0, 1_190.0, 1_250.0));

    assertThat(spread.median()).isEqualTo(1_210.0);
    assertThat(spread.min()).isEqualTo(1_190.0);
    assertThat(spread.max()).isEqualTo(1_250.0);
    assertThat(spread.format(Spread::number)).isEqualTo("1,210 (1,190–1,250)");
  }

  @Test
  void takesTheMeanOfTheMiddleTwoOfAnEvenNumberWithoutOverflowing() {
    assertThat(Spread.of(List.of(4.0, 1.0, 3.0, 2.0)).median()).isEqualTo(2.5);
    assertThat(Spread.of(List.of(Double.MAX_VALUE, Double.MAX_VALUE)).median()).isEqualTo(Double.MAX_VALUE);
  }

  @Test
  void leavesOutRunsThatMeasuredNothingAndSaysHowMany() {
    Spread spread = Spread.of(Arrays.asList(Double.NaN, 7.0, Double.NaN));

    assertThat(spread.median()).isEqualTo(7.0);
    assertThat(spread.count()).isEqualTo(1);
    assertThat(spread.missing()).isEqualTo(2);
    assertThat(spread.format(Spread::number)).isEqualTo("7.0 [2 n/a]");
    assertThat(Spread.of(List.of(Double.NaN)).format(Spread::number)).isEqualTo("-");
    assertThat(Spread.of(List.of()).median()).isNaN();
  }

  @Test
  void keepsZeroNegativeAndHugeFiguresAsTheyAre() {
    Spread spread = Spread.of(List.of(0.0, -3.0, 1e300));

    assertThat(spread.median()).isZero();
    assertThat(spread.min()).isEqualTo(-3.0);
    assertThat(spread.max()).isEqualTo(1e300);
    assertThat(Spread.of(List.of(5.0, 5.0, 5.0)).format(Spread::decimals)).isEqualTo("5.00");
    assertThat(Spread.number(Double.POSITIVE_INFINITY)).isEqualTo("inf");
    assertThat(Spread.count(1_234)).isEqualTo("1,234");
    assertThat(Spread.count(Double.NaN)).isEqualTo("-");
  }

  @Test
  void theRatioOfSustainedRatesNeedsAReferenceThatSustainedAStep() {
    assertThat(SideFigures.ratio(1_200, 2_400)).isEqualTo(0.5);
    assertThat(SideFigures.ratio(0, 2_400)).isZero();
    assertThat(SideFigures.ratio(1_200, 0)).isNaN();
    assertThat(SideFigures.ratio(1_200, -1)).isNaN();
    assertThat(SideFigures.ratio(1_200, Double.NaN)).isNaN();
    assertThat(SideFigures.ratio(Double.NaN, 2_400)).isNaN();
    assertThat(SideFigures.ratio(1_200, Double.POSITIVE_INFINITY)).isNaN();
    assertThat(SideFigures.ratio(1e308, 1e-308)).isInfinite();
  }

  @Test
  void theSustainedRateIsTheHighestAcceptedRateOfASustainedStep() {
    SideFigures side = new SideFigures(List.of(step(500, 500, true), step(1_000, 998, true),
        step(2_000, 1_400, false)), 4, 3, 0, 0);

    assertThat(side.sustainedRate()).isEqualTo(998);
    assertThat(side.at(2_000).acceptedPerSecond()).isEqualTo(1_400);
    assertThat(side.at(3_000)).isNull();
    assertThat(new SideFigures(List.of(step(2_000, 1_400, false)), 4, 3, 0, 0).sustainedRate()).isZero();
  }

  @Test
  void countsPerPaymentOnlyWhenAPaymentWasAccepted() {
    assertThat(WorkCounters.perPayment(9, 3)).isEqualTo(3.0);
    assertThat(WorkCounters.perPayment(9, 0)).isNaN();
    assertThat(WorkCounters.perPayment(0, 3)).isZero();
  }

  private static SideFigures.StepFigures step(double rate, double accepted, boolean sustained) {
    return new SideFigures.StepFigures(rate, Report.rate(rate) + "/s", accepted, sustained, 5, 50, 90, 300, 1.5);
  }
}
