package dev.lipa.payouts.payout.rail.daraja;

import dev.lipa.common.lease.LeasedJob;
import dev.lipa.common.lease.Leases;
import java.time.Clock;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The daily funds reconciliation: every {@code check-interval} one replica (the holder of the lease {@value #LEASE})
 * closes the reports whose shortcodes did not answer in time, and from {@code at} (Nairobi time) runs the day's
 * reconciliation if the day has none. The day's report is created once (its day is unique in the store), so the
 * shortcodes are asked once a day however many replicas run, restart or take the lease over; the fencing check comes
 * before each question.
 */
@Component
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class DailyReconciliation implements AutoCloseable {

  static final String LEASE = "daraja-balance-reconciliation";
  /** How many check intervals a grant lasts. */
  static final int LEASE_INTERVALS = 3;

  private final BalanceReconciliations reconciliations;
  private final DarajaPayoutsProperties.Reconciliation settings;
  private final LeasedJob job;

  @Autowired
  DailyReconciliation(BalanceReconciliations reconciliations, DarajaPayoutsProperties properties, Clock clock,
      Leases leases) {
    this(reconciliations, properties.reconciliation(), leases);
    job.every(settings.checkInterval(), () -> check(clock.instant()));
  }

  /** Not started: {@link #check} runs when called (tests run several as replicas). */
  DailyReconciliation(BalanceReconciliations reconciliations, DarajaPayoutsProperties.Reconciliation settings,
      Leases leases) {
    this.reconciliations = reconciliations;
    this.settings = settings;
    this.job = new LeasedJob(leases, LEASE, settings.checkInterval().multipliedBy(LEASE_INTERVALS));
  }

  /**
   * When this replica holds the lease: closes overdue reports, then runs the day's reconciliation if it is due and
   * not done. Returns the id of the reconciliation it opened, if it opened one.
   */
  Optional<String> check(Instant now) {
    return job.runIfHolder(lease -> {
      reconciliations.expireOverdue(now);
      ZonedDateTime local = now.atZone(BalanceReconciliations.NAIROBI);
      if (local.toLocalTime().isBefore(settings.time()) || reconciliations.scheduledFor(local.toLocalDate())) {
        return null;
      }
      return reconciliations.run(BalanceReconciliation.Trigger.SCHEDULED, local.toLocalDate(), now,
          () -> job.check(lease)).map(BalanceReconciliation::id).orElse(null);
    });
  }

  /** Stops the timer and gives the lease up, so another replica takes the job at once. */
  @Override
  public void close() {
    job.close();
  }
}
