package dev.lipa.collections.stk;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRail;
import dev.lipa.common.rail.OverdueSettings;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Asks the rail again for the outcome of pushes still PENDING long after they should have been answered: the
 * process waiting for the answer may have died (the sandbox's timer lives in memory; a real rail's callback may be
 * lost). Safe on every replica at once: applying an outcome is a compare-and-set.
 */
@Component
public class OverdueStkPushes implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(OverdueStkPushes.class);

  private final StkPushStore store;
  private final ObjectProvider<StkRail> rail;
  private final OverdueSettings settings;
  private final Clock clock;
  private final ScheduledExecutorService scheduler;

  public OverdueStkPushes(StkPushStore store, ObjectProvider<StkRail> rail, CollectionsProperties properties,
      Clock clock) {
    this.store = store;
    this.rail = rail;
    this.settings = properties.overdue();
    this.clock = clock;
    this.scheduler = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().daemon().name("stk-overdue-sweep").factory());
    long period = settings.sweepInterval().toMillis();
    scheduler.scheduleWithFixedDelay(this::sweepSafely, period, period, TimeUnit.MILLISECONDS);
  }

  /** Asks the rail about every overdue push of this batch; returns how many. */
  public int sweep() {
    StkRail target = rail.getIfAvailable();
    if (target == null) {
      return 0;
    }
    var overdue = store.overduePending(clock.instant().minus(settings.after()), settings.sweepBatch());
    for (StkPush push : overdue) {
      StkPush.Details d = push.details();
      log.info("STK push {} is overdue; asking the rail for its outcome again", d.requestId());
      target.queryOutcome(new StkPrompt(d.organisationId(), d.requestId(), d.phoneNumber(), d.amount(),
          d.currency().name()));
    }
    return overdue.size();
  }

  private void sweepSafely() {
    try {
      sweep();
    } catch (RuntimeException e) {
      log.warn("overdue STK sweep failed: {}", e.toString());
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
