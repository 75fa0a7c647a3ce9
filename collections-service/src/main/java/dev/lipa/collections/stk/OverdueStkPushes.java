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
 * lost, and Daraja never sends one twice). This is the reconciliation of STK pushes: the rail settles what its answer
 * settles through the outcome handler.
 *
 * <p>Each push is asked about a bounded number of times, further and further apart ({@link OverdueQuestions}); a push
 * still PENDING after the last question is left to operators. It stays PENDING: only the rail's word settles a push.
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

  private final OverdueQuestions questions;
  private final Supplier<StkRail> rail;
  private final OverdueSettings settings;
  private final Clock clock;
  private final LeasedJob job;

  @Autowired
  public OverdueStkPushes(OverdueQuestions questions, ObjectProvider<StkRail> rail, CollectionsProperties properties,
      Clock clock, Leases leases) {
    this(questions, rail::getIfAvailable, properties.overdue(), clock, leases);
    job.every(settings.sweepInterval(), this::sweep);
  }

  /** Not started: {@link #sweep()} runs when called (tests run several as replicas). */
  OverdueStkPushes(OverdueQuestions questions, Supplier<StkRail> rail, OverdueSettings settings, Clock clock,
      Leases leases) {
    this.questions = questions;
    this.rail = rail;
    this.settings = settings;
    this.clock = clock;
    this.job = new LeasedJob(leases, LEASE, settings.sweepInterval().multipliedBy(LEASE_INTERVALS));
  }

  /**
   * Asks the rail about every overdue push of this batch that is due for a question when this replica holds the lease;
   * returns how many (0 when another replica holds it, or when the lease was lost midway).
   */
  public int sweep() {
    StkRail target = rail.get();
    if (target == null) {
      return 0;
    }
    return job.forEachHeld(() -> questions.due(clock.instant().minus(settings.after()), clock.instant(),
        settings.sweepBatch()), due -> {
          StkPush.Details d = due.push().details();
          log.info("STK push {} is overdue; asking the rail for its outcome again ({} asked before)", d.requestId(),
              due.questions());
          try {
            target.queryOutcome(new StkPrompt(d.organisationId(), d.requestId(), d.phoneNumber(), d.amount(),
                d.currency().name()));
          } catch (RuntimeException e) {
            // counted as a question all the same: a push whose question always fails neither stops the batch behind
            // it at every sweep nor stays out of the operators' sight
            log.warn("asking the rail about overdue STK push {} failed: {}", d.requestId(), e.toString());
          }
          questions.asked(due, clock.instant());
        });
  }

  /** Stops sweeping and gives the lease up, so another replica takes the job at once. */
  @Override
  public void close() {
    job.close();
  }
}
