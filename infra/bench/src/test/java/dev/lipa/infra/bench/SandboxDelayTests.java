package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The running platform's sandbox delay, read from collections-service's command line and environment. */
class SandboxDelayTests {

  @Test
  void readsDurationsAsSpringBootDoes() {
    assertThat(SandboxDelay.parse("300ms")).isEqualTo(Duration.ofMillis(300));
    assertThat(SandboxDelay.parse("3s")).isEqualTo(Duration.ofSeconds(3));
    assertThat(SandboxDelay.parse("500")).isEqualTo(Duration.ofMillis(500));
    assertThat(SandboxDelay.parse("PT0.5S")).isEqualTo(Duration.ofMillis(500));
    assertThat(SandboxDelay.parse(" 1m ")).isEqualTo(Duration.ofMinutes(1));
    assertThat(SandboxDelay.parse("0")).isZero();
  }

  @Test
  void refusesWhatIsNoDelayTheBenchCanWaitFor() {
    for (String text : new String[] {"-1s", "NaN", "3 seconds", "", "11m", "99999999999999999999s",
        "9223372036854775807d"}) {
      assertThatThrownBy(() -> SandboxDelay.parse(text)).as(text)
          .isInstanceOfAny(IllegalArgumentException.class, ArithmeticException.class);
    }
  }

  @Test
  void takesTheCommandLineFirstThenTheServicesOwnVariableThenTheSharedOne() {
    String environ = "PATH=/usr/bin\0SANDBOX_OUTCOME_DELAY=2s\0LIPA_COLLECTIONS_SANDBOX_OUTCOMEDELAY=300ms\0";

    assertThat(SandboxDelay.fromProcess("java\0-jar\0app.jar\0", environ).orElseThrow().delay())
        .isEqualTo(Duration.ofMillis(300));
    assertThat(SandboxDelay.fromProcess("java\0-Dlipa.collections.sandbox.outcome-delay=1s\0-jar\0app.jar\0",
        environ).orElseThrow().delay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(SandboxDelay.fromProcess("java\0", "SANDBOX_OUTCOME_DELAY=2s\0").orElseThrow().delay())
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(SandboxDelay.fromProcess("java\0", "PATH=/usr/bin\0NOT_SANDBOX_OUTCOME_DELAY=9s\0")).isEmpty();
  }

  @Test
  void takesThePlatformsDefaultWhenTheProcessIsUnknownOrItsSettingUnusable() {
    assertThat(SandboxDelay.of(null).delay()).isEqualTo(ReferencePipeline.DEFAULT_OUTCOME_DELAY);
    assertThat(SandboxDelay.of(Long.MAX_VALUE).source()).startsWith("the default");
  }
}
