package dev.lipa.payouts.payout.rail.sandbox;

import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutOutcomeHandler;
import dev.lipa.payouts.payout.rail.PayoutRail;
import java.time.Clock;
import java.time.ZoneId;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The sandbox payout rail: nothing is paid; after {@code lipa.payouts.sandbox.outcome-delay} it reports the outcome
 * {@link SandboxPayoutOutcomes} decides. Its timers live in memory: a crash loses them and the overdue sweep asks
 * again, which is safe because the outcome is deterministic and applying it is idempotent.
 */
@Component
@ConditionalOnProperty(name = "lipa.payouts.sandbox.enabled", havingValue = "true", matchIfMissing = true)
public class SandboxPayoutRail implements PayoutRail, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SandboxPayoutRail.class);

  private final PayoutOutcomeHandler outcomes;
  private final Clock clock;
  private final ZoneId zone;
  private final long delayMillis;
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("sandbox-payout-timer").factory());
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();

  public SandboxPayoutRail(PayoutOutcomeHandler outcomes, PayoutsProperties properties, Clock clock) {
    this.outcomes = outcomes;
    this.clock = clock;
    this.zone = properties.zone();
    this.delayMillis = properties.sandbox().outcomeDelay().toMillis();
  }

  @Override
  public void pay(PayoutOrder order) {
    try {
      timers.schedule(() -> workers.execute(() -> report(order)), delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      log.info("sandbox payout rail stopping; the overdue sweep will answer payout {}", order.requestId());
    }
  }

  @Override
  public void queryOutcome(PayoutOrder order) {
    report(order);
  }

  private void report(PayoutOrder order) {
    try {
      outcomes.apply(SandboxPayoutOutcomes.decide(order, clock.instant(), zone));
    } catch (RuntimeException e) {
      log.warn("sandbox outcome of payout {} not applied; the overdue sweep will retry: {}", order.requestId(),
          e.toString());
    }
  }

  @Override
  public void close() {
    timers.shutdownNow();
    workers.shutdown();
    try {
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
