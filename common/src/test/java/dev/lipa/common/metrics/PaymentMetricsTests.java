package dev.lipa.common.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The payment counters: declared series at zero, counts by kind, country and outcome, and the outcome latency. */
class PaymentMetricsTests {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final PaymentMetrics metrics = new PaymentMetrics(registry);

  private double count(String kind, String country, String outcome) {
    return registry.get(PaymentMetrics.PAYMENTS).tag("kind", kind).tag("country", country).tag("outcome", outcome)
        .counter().count();
  }

  @Test
  void declaresEverySeriesOfAKindAtZero() {
    metrics.declare(PaymentKind.SEND_MONEY, "KE", "TZ");

    for (String country : new String[] {"KE", "TZ"}) {
      for (String outcome : new String[] {"accepted", "succeeded", "failed"}) {
        assertThat(count("send_money", country, outcome)).isZero();
      }
    }
    assertThat(registry.get(PaymentMetrics.OUTCOME_LATENCY).tag("kind", "send_money").timers()).hasSize(4);
  }

  @Test
  void countsAcceptanceAndOutcomeAndTimesTheWayBetween() {
    Instant accepted = Instant.parse("2026-01-01T10:00:00Z");

    metrics.accepted(PaymentKind.STK_PUSH, "KE");
    metrics.finished(PaymentKind.STK_PUSH, "KE", false, accepted, accepted.plus(Duration.ofSeconds(4)));

    assertThat(count("stk_push", "KE", "accepted")).isEqualTo(1);
    assertThat(count("stk_push", "KE", "failed")).isEqualTo(1);
    assertThat(registry.get(PaymentMetrics.OUTCOME_LATENCY).tag("outcome", "failed").timer()
        .totalTime(TimeUnit.SECONDS)).isEqualTo(4);
  }

  @Test
  void aCountryOutsideTheRailsIsCountedAsOtherNeverAsItsOwnTag() {
    metrics.accepted(PaymentKind.TILL, "ZZ");
    metrics.accepted(PaymentKind.TILL, "254712345678");
    metrics.accepted(PaymentKind.TILL, null);

    assertThat(count("till", "other", "accepted")).isEqualTo(3);
    assertThat(registry.get(PaymentMetrics.PAYMENTS).counters()).hasSize(1);
  }
}
