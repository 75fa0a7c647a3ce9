package dev.lipa.payouts.payout.rail.daraja;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The funds reconciliation's gauges, read from the latest closed report in the store (so every replica shows the
 * same, from start-up, and a restart loses nothing), one read at most every {@value #MAX_AGE_MILLIS} ms for all:
 * <ul>
 *   <li>{@value #LATEST}{@code {status}}: 1 for the latest report's status (matched, different, incomplete), 0 for
 *       the others; infra/observability alerts while it is not matched;</li>
 *   <li>{@value #DIFFERENCE}{@code {currency}}: its difference (what the shortcodes held less what the ledger owed;
 *       NaN for an incomplete one);</li>
 *   <li>{@value #AGE}: seconds since it asked the shortcodes, which alerts when the daily run stops happening.</li>
 * </ul>
 * NaN until a report has closed, and while the store cannot be read (unknown, never a reassuring value).
 */
@Component
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class ReconciliationGauges {

  static final String LATEST = "lipa.reconciliation.latest";
  static final String DIFFERENCE = "lipa.reconciliation.difference";
  static final String AGE = "lipa.reconciliation.age";
  static final long MAX_AGE_MILLIS = 10_000;
  private static final Logger log = LoggerFactory.getLogger(ReconciliationGauges.class);

  private final BalanceReconciliationStore store;
  private final Clock clock;
  private long readAtMillis = Long.MIN_VALUE;
  private Optional<BalanceReconciliation> latest = Optional.empty();
  private boolean readable;

  ReconciliationGauges(ObjectProvider<MeterRegistry> registry, BalanceReconciliationStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
    MeterRegistry meters = registry.getIfAvailable();
    if (meters == null) {
      return;
    }
    for (BalanceReconciliation.Status status : BalanceReconciliation.Status.values()) {
      if (status != BalanceReconciliation.Status.OPEN) {
        Gauge.builder(LATEST, this, gauge(r -> r.status() == status ? 1 : 0))
            .tag("status", status.name().toLowerCase(Locale.ROOT))
            .description("1 for the status of the latest closed funds reconciliation, 0 for the others")
            .register(meters);
      }
    }
    Gauge.builder(DIFFERENCE, this, gauge(r -> r.comparison() == null ? Double.NaN
            : r.comparison().difference().doubleValue())).tag("currency", "KSH")
        .description("What the shortcodes held less what the ledger owed, at the latest closed funds reconciliation")
        .register(meters);
    Gauge.builder(AGE, this, gauge(r -> Math.max(0, clock.millis() - r.askedAt().toEpochMilli()) / 1000.0))
        .baseUnit("seconds").description("Seconds since the latest closed funds reconciliation asked the shortcodes")
        .register(meters);
  }

  private static ToDoubleFunction<ReconciliationGauges> gauge(ToDoubleFunction<BalanceReconciliation> value) {
    return gauges -> gauges.latest().map(value::applyAsDouble).orElse(Double.NaN);
  }

  /** The latest closed report, read again when the last reading is older than the maximum age; empty if unknown. */
  private synchronized Optional<BalanceReconciliation> latest() {
    long now = clock.millis();
    if (readAtMillis == Long.MIN_VALUE || now - readAtMillis >= MAX_AGE_MILLIS) {
      readAtMillis = now;
      try {
        latest = store.latestClosed();
        readable = true;
      } catch (RuntimeException e) {
        log.debug("the funds reconciliation gauges could not read the store: {}", e.toString());
        readable = false;
      }
    }
    return readable ? latest : Optional.empty();
  }
}
