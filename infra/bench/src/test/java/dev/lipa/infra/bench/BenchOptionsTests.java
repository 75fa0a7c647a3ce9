package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The store-kill probe's options of {@code ./platform bench}. */
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
}
