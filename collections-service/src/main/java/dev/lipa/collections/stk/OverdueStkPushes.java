package dev.lipa.collections.stk;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRail;
import dev.lipa.common.lease.LeasedJob;
import dev.lipa.common.lease.Leases;
import dev.lipa.common.rail.OverdueSettings;
import java.time.Clock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Asks the rail again for the outcome of pushes still PENDING long after they should have been answered: the
 * process waiting for the answer may have died (the sandbox's timer lives in memory; a real rail's callback may be
 * lost).
 *
 * <p>Runs under the lease {@value #LEASE} (one replica at a time, for {@link #LEASE_INTERVALS} sweep intervals, renewed
 * by each sweep): every replica asking the rail about the same pushes would multiply the queries a real rail counts
 * against us. Before each question the sweep makes the lease's fencing check, so a replica that stalled past its lease
 * asks nothing more once it wakes. The answer itself is applied by a compare-and-set, so a question asked twice anyway
 * (the window between a check and its question) still completes the push once.
 */
@Component
public class OverdueStkPushes implements AutoCloseable {

  /** The lease's name in the service's {@code leases} collection. */
  static final String LEASE = "stk-overdue-sweep";
  /** How many sweep intervals a grant lasts: a holder that misses a sweep or two keeps the job. */
  static final int LEASE_INTERVALS = 3;
  private static final Logger log = LoggerFactory.getLogger(OverdueStkPushes.class);

  private final StkPushStore store;
  private final Supplier<StkRail> rail;
  private final OverdueSettings settings;
  private final Clock clock;
  private final LeasedJob job;

  @Autowired
  public OverdueStkPushes(StkPushStore store, ObjectProvider<StkRail> rail, CollectionsProperties properties,
      Clock clock, Leases leases) {
    this(store, rail::getIfAvailable, properties.overdue(), clock, leases);
    job.every(settings.sweepInterval(), this::sweep);
  }

  /** Not started: {@link #sweep()} runs when called (tests run several as replicas). */
  OverdueStkPushes(StkPushStore store, Supplier<StkRail> rail, OverdueSettings settings, Clock clock, Leases leases) {
    this.store = store;
    this.rail = rail;
    this.settings = settings;
    this.clock = clock;
    this.job = new LeasedJob(leases, LEASE, settings.sweepInterval().multipliedBy(LEASE_INTERVALS));
  }

  /**
   * Asks the rail about every overdue push of this batch when this replica holds the lease; returns how many (0 when
   * another replica holds it, or when the lease was lost midway).
   */
  public int sweep() {
    StkRail target = rail.get();
    if (target == null) {
      return 0;
    }
    return job.forEachHeld(() -> store.overduePending(clock.instant().minus(settings.after()), settings.sweepBatch()),
        push -> {
          StkPush.Details d = push.details();
          log.info("STK push {} is overdue; asking the rail for its outcome again", d.requestId());
          target.queryOutcome(new StkPrompt(d.organisationId(), d.requestId(), d.phoneNumber(), d.amount(),
              d.currency().name()));
        });
  }

  /** Stops sweeping and gives the lease up, so another replica takes the job at once. */
  @Override
  public void close() {
    job.close();
  }
}
