package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Options of {@code ./platform bench}: the store-kill probe's, the reference payment's and {@code --repeat}. */
class BenchOptionsTests {

  @Test
  void killsTheStoreOnlyWhenAskedAndReadsSecondsWithOrWithoutTheirUnit() {
    assertThat(BenchOptions.parse(new String[0]).killsStore()).isFalse();

    BenchOptions options = BenchOptions.parse(new String[] {"--kill-store-at", "60s", "--store-down", "7.5",
        "--platform", "/opt/lipa/platform"});

    assertThat(options.killsStore()).isTrue();
    assertThat(options.killStoreAtMillis()).isEqualTo(60_000);
    assertThat(options.storeDownMillis()).isEqualTo(7_500);
    assertThat(options.platformCommand()).hasToString("/opt/lipa/platform");
    assertThat(BenchOptions.parse(new String[] {"--kill-store-at", "0"}).storeDownMillis()).isEqualTo(10_000);
  }

  @Test
  void refusesANegativeOrUnreadableTime() {
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--kill-store-at", "-5s"}))
        .isInstanceOf(BenchOptions.UsageException.class);
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--store-down", "ten"}))
        .isInstanceOf(BenchOptions.UsageException.class);
  }

  @Test
  void runsOnceUnlessToldToRepeatAndThenAWholeNumberOfTimes() {
    assertThat(BenchOptions.parse(new String[0]).repeat()).isEqualTo(1);
    assertThat(BenchOptions.parse(new String[] {"--repeat", "3"}).repeat()).isEqualTo(3);
    assertThat(BenchOptions.parse(new String[] {"--repeat", "20"}).repeat()).isEqualTo(BenchOptions.MAX_REPEAT);
    for (String bad : new String[] {"0", "-1", "2.5", "NaN", "Infinity", "1e9", "21", "three", ""}) {
      assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--repeat", bad})).as(bad)
          .isInstanceOf(BenchOptions.UsageException.class);
    }
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--repeat"}))
        .isInstanceOf(BenchOptions.UsageException.class).hasMessageContaining("needs a value");
  }

  @Test
  void aSoakIsOneLongStepAtItsRateWithNoReference() {
    assertThat(BenchOptions.parse(new String[0]).soaks()).isFalse();

    BenchOptions thirty = BenchOptions.parse(new String[] {"--soak", "300"});
    assertThat(thirty.soaks()).isTrue();
    assertThat(thirty.steps()).containsExactly(300.0);
    assertThat(thirty.stepMillis()).isEqualTo(30 * 60_000L);
    assertThat(thirty.reference()).isFalse();
    assertThat(BenchOptions.parse(new String[] {"--soak", "250", "--soak-minutes", "2"}).stepMillis())
        .isEqualTo(120_000L);
  }

  @Test
  void refusesASoakItCannotRunAsAsked() {
    for (String[] bad : new String[][] {{"--soak", "0"}, {"--soak", "-3"}, {"--soak", "NaN"}, {"--soak", "Infinity"},
        {"--soak", "1e100000000"}, {"--soak", "1e-100000000"}, {"--soak-minutes", "1e100000000", "--soak", "300"},
        {"--soak", "300", "--soak-minutes", "1"}, {"--soak", "300", "--soak-minutes", "1441"},
        {"--soak", "300", "--soak-minutes", "2.5"}, {"--soak-minutes", "10"}, {"--soak", "300", "--steps", "100"},
        {"--soak", "300", "--step-seconds", "10"}, {"--soak", "300", "--repeat", "2"}, {"--soak", "300", "--smoke"},
        {"--soak", "300", "--kill-store-at", "60"}}) {
      assertThatThrownBy(() -> BenchOptions.parse(bad)).as(String.join(" ", bad))
          .isInstanceOf(BenchOptions.UsageException.class);
    }
  }

  @Test
  void takesTheWarmUpsSettleShareAsAShareNotAPercentage() {
    assertThat(BenchOptions.parse(new String[] {"--warmup-settle", "0.05"}).warmupSettle()).isEqualTo(0.05);
    assertThat(BenchOptions.parse(new String[] {"--warmup-settle", "0"}).warmupSettle()).isZero();
    assertThat(BenchOptions.parse(new String[] {"--warmup-settle", "1"}).warmupSettle()).isEqualTo(1.0);
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--warmup-settle", "5"}))
        .isInstanceOf(BenchOptions.UsageException.class).hasMessageContaining("0.10 is 10%");
  }

  @Test
  void repeatsNoStoreKill() {
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--repeat", "3", "--kill-store-at", "60"}))
        .isInstanceOf(BenchOptions.UsageException.class).hasMessageContaining("--repeat");
  }

  @Test
  void takesTheReferencesSandboxDelayInSecondsOrMillisecondsOrLeavesItToThePlatform() {
    assertThat(BenchOptions.parse(new String[0]).referenceOutcomeDelayGiven()).isFalse();
    assertThat(delay("300ms")).isEqualTo(300);
    assertThat(delay("3s")).isEqualTo(3_000);
    assertThat(delay("0.5")).isEqualTo(500);
    assertThat(delay("0")).isZero();
    assertThat(BenchOptions.parse(new String[] {"--reference-outcome-delay", "0"}).referenceOutcomeDelayGiven())
        .isTrue();
    for (String bad : new String[] {"-1", "-1ms", "NaN", "NaNms", "Infinity", "601", "1e12", "soon"}) {
      assertThatThrownBy(() -> delay(bad)).as(bad).isInstanceOf(BenchOptions.UsageException.class);
    }
  }

  @Test
  void refusesNumbersThatAreNotFiniteWhereverATimeOrRateIsAsked() {
    for (String[] args : new String[][] {{"--step-seconds", "NaN"}, {"--warmup-seconds", "Infinity"},
        {"--grace-seconds", "NaN"}, {"--steps", "100,NaN"}, {"--steps", "Infinity"}, {"--warmup-rate", "NaN"},
        {"--connections", "2.5"}, {"--connections", "1e12"}, {"--tokens", "0"}, {"--max-in-flight", "-3"}}) {
      assertThatThrownBy(() -> BenchOptions.parse(args)).as(String.join(" ", args))
          .isInstanceOf(BenchOptions.UsageException.class);
    }
    assertThat(BenchOptions.parse(new String[] {"--connections", "64"}).connections()).isEqualTo(64);
  }

  private static long delay(String text) {
    return BenchOptions.parse(new String[] {"--reference-outcome-delay", text}).referenceOutcomeDelayMillis();
  }
}
