package dev.lipa.payouts.payout;

import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.common.rail.OverdueSettings;
import dev.lipa.payouts.payout.rail.PayoutRail;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Asks the rail again for payouts PENDING longer than {@code lipa.payouts.overdue.after}: a crash lost the rail's
 * timer or its answer, or fell between the ledger step and the payout's completion. Safe on every replica at once.
 */
@Component
class OverduePayouts implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(OverduePayouts.class);

  private final Payouts payouts;
  private final ObjectProvider<PayoutRail> rail;
  private final OverdueSettings settings;
  private final Clock clock;
  private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("overdue-payouts").factory());

  OverduePayouts(Payouts payouts, ObjectProvider<PayoutRail> rail, PayoutsProperties properties, Clock clock) {
    this.payouts = payouts;
    this.rail = rail;
    this.settings = properties.overdue();
    this.clock = clock;
    long period = settings.sweepInterval().toMillis();
    sweeper.scheduleWithFixedDelay(this::sweepSafely, period, period, TimeUnit.MILLISECONDS);
  }

  private void sweepSafely() {
    try {
      PayoutRail current = rail.getIfAvailable();
      if (current == null) {
        return;
      }
      for (Payout payout : payouts.overdue(clock.instant().minus(settings.after()), settings.sweepBatch())) {
        current.queryOutcome(Payouts.orderOf(payout));
      }
    } catch (RuntimeException e) {
      log.warn("overdue payout sweep failed: {}", e.toString());
    }
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
  }
}
