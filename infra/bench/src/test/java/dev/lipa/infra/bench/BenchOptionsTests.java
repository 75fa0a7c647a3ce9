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
