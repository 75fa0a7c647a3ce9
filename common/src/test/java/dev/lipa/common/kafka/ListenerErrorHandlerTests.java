package dev.lipa.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.util.backoff.BackOffExecution;

class ListenerErrorHandlerTests {

  private final ListenerRetrySettings platform =
      new ListenerRetrySettings(Duration.ofMillis(200), 2.0, Duration.ofSeconds(30));

  @Test
  void waitsTwoHundredMillisecondsDoublingToThirtySecondsAndNeverGivesUp() {
    BackOffExecution execution = platform.backOff().start();

    long[] waits = LongStream.range(0, 10_000).map(i -> execution.nextBackOff()).toArray();

    assertThat(waits).startsWith(200, 400, 800, 1600, 3200, 6400, 12800, 25600, 30000, 30000);
    assertThat(waits).doesNotContain(BackOffExecution.STOP);
    assertThat(platform.millisAfter(1)).isEqualTo(200);
    assertThat(platform.millisAfter(9)).isEqualTo(30000);
    assertThat(platform.millisAfter(500)).isEqualTo(30000);
  }

  @Test
  void recoversADeadLetterAtOnceAndAfterAFailedRecoveryWaitsBeforeTheNextTry() {
    BackOffExecution execution = new ListenerErrorHandler.DeadLetterFirst(platform.backOff()).start();

    assertThat(LongStream.range(0, 6).map(i -> execution.nextBackOff()).toArray())
        .containsExactly(BackOffExecution.STOP, 200, BackOffExecution.STOP, 400, BackOffExecution.STOP, 800);
  }

  @Test
  void refusesSettingsThatWouldRetryInATightLoop() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> new ListenerRetrySettings(Duration.ZERO, 2.0, Duration.ofSeconds(30)))
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> new ListenerRetrySettings(Duration.ofMillis(200), 0.5, Duration.ofSeconds(30)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
