package dev.lipa.collections.stk;

import dev.lipa.common.metrics.CachedReading;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * {@value #NAME}: the STK pushes the reconciliation left to operators (still PENDING, asked about no more), read from
 * the store at most every 30 s, so the {@code StkPushesUnresolved} alert (infra/observability) tells someone that money
 * may have moved without the platform knowing. The store holds it: it exists at 0 and survives restarts.
 */
@Component
class UnresolvedStkPushesGauge {

  static final String NAME = "lipa.stk.unresolved";

  UnresolvedStkPushesGauge(OverdueQuestions questions, ObjectProvider<MeterRegistry> registry, Clock clock) {
    MeterRegistry meters = registry.getIfAvailable();
    if (meters == null) {
      return;
    }
    CachedReading unresolved = new CachedReading(NAME, questions::countUnresolved, Duration.ofSeconds(30), clock);
    Gauge.builder(NAME, unresolved, CachedReading::value)
        .description("STK pushes still PENDING after the reconciliation's last question, left to operators")
        .strongReference(true).register(meters);
  }
}
