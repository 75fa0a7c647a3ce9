package dev.lipa.payouts.payout;

import dev.lipa.common.lease.LeasedJob;
import dev.lipa.common.lease.Leases;
import dev.lipa.common.rail.OverdueSettings;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.payout.rail.PayoutRail;
import java.time.Clock;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Asks the rail again for payouts PENDING longer than {@code lipa.payouts.overdue.after}: a crash lost the rail's
 * timer or its answer, or fell between the ledger step and the payout's completion.
 *
 * <p>Runs under the lease {@value #LEASE} (one replica at a time, for {@link #LEASE_INTERVALS} sweep intervals,
 * renewed by each sweep), with the lease's fencing check before each question, as the STK sweep does: replicas would
 * otherwise multiply the questions a real payout rail counts. A repeated answer is harmless anyway (the outcome
 * skips the ledger and completes the payout by compare-and-set).
 */
@Component
class OverduePayouts implements AutoCloseable {

  /** The lease's name in the service's {@code leases} collection. */
  static final String LEASE = "payouts-overdue-sweep";
  /** How many sweep intervals a grant lasts. */
  static final int LEASE_INTERVALS = 3;

  private final Payouts payouts;
  private final Supplier<PayoutRail> rail;
  private final OverdueSettings settings;
  private final Clock clock;
  private final LeasedJob job;

  @Autowired
  OverduePayouts(Payouts payouts, ObjectProvider<PayoutRail> rail, PayoutsProperties properties, Clock clock,
      Leases leases) {
    this(payouts, rail::getIfAvailable, properties.overdue(), clock, leases);
    job.every(settings.sweepInterval(), this::sweep);
  }

  /** Not started: {@link #sweep()} runs when called (tests run several as replicas). */
  OverduePayouts(Payouts payouts, Supplier<PayoutRail> rail, OverdueSettings settings, Clock clock, Leases leases) {
    this.payouts = payouts;
    this.rail = rail;
    this.settings = settings;
    this.clock = clock;
    this.job = new LeasedJob(leases, LEASE, settings.sweepInterval().multipliedBy(LEASE_INTERVALS));
  }

  /** Asks the rail about this batch of overdue payouts when this replica holds the lease; returns how many. */
  int sweep() {
    PayoutRail current = rail.get();
    if (current == null) {
      return 0;
    }
    return job.forEachHeld(() -> payouts.overdue(clock.instant().minus(settings.after()), settings.sweepBatch()),
        payout -> current.queryOutcome(Payouts.orderOf(payout)));
  }

  /** Stops sweeping and gives the lease up, so another replica takes the job at once. */
  @Override
  public void close() {
    job.close();
  }
}
