package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The dispatcher's meters: there at zero from the start, and each attempt counted and timed by its outcome. */
class CallbackMetricsTests {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final CallbackMetrics metrics = new CallbackMetrics(registry);

  private double attempts(String outcome) {
    return registry.get(CallbackMetrics.ATTEMPTS).tag("outcome", outcome).counter().count();
  }

  @Test
  void registersEverySeriesAtZero() {
    assertThat(registry.get(CallbackMetrics.ATTEMPTS).counters()).hasSize(3);
    assertThat(registry.get(CallbackMetrics.LATENCY).timers()).hasSize(3);
    assertThat(registry.get(CallbackMetrics.DEAD).counter().count()).isZero();
    assertThat(registry.get(CallbackMetrics.DISABLED).counter().count()).isZero();
  }

  @Test
  void countsAndTimesEachAttemptByItsOutcome() {
    metrics.attempted(AttemptOutcome.answered(204, 40, ""));
    metrics.attempted(AttemptOutcome.answered(500, 120, "oops"));
    metrics.attempted(AttemptOutcome.noAnswer("timeout", 10_000));
    metrics.attempted(AttemptOutcome.answered(302, 5, ""));
    metrics.attempted(AttemptOutcome.answered(410, 7, ""));
    metrics.died();
    metrics.disabledEndpoint();

    assertThat(attempts("delivered")).isEqualTo(1);
    assertThat(attempts("failed")).isEqualTo(3);
    assertThat(attempts("gone")).isEqualTo(1);
    assertThat(registry.get(CallbackMetrics.LATENCY).tag("outcome", "failed").timer().totalTime(TimeUnit.MILLISECONDS))
        .isEqualTo(10_125);
    assertThat(registry.get(CallbackMetrics.DEAD).counter().count()).isEqualTo(1);
    assertThat(registry.get(CallbackMetrics.DISABLED).counter().count()).isEqualTo(1);
  }
}
