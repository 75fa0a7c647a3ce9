package dev.lipa.collections.stk.rail.sandbox;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.stk.rail.StkOutcomeHandler;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRail;
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
 * The sandbox rail: no phone is prompted; after {@code lipa.collections.sandbox.outcome-delay} it reports the outcome
 * {@link SandboxOutcomes} decides. Its timers live in memory: a crash loses them and the overdue sweep asks again,
 * which is safe because the outcome is deterministic and applying it is a compare-and-set.
 */
@Component
@ConditionalOnProperty(name = "lipa.collections.sandbox.enabled", havingValue = "true", matchIfMissing = true)
public class SandboxStkRail implements StkRail, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SandboxStkRail.class);

  private final StkOutcomeHandler outcomes;
  private final Clock clock;
  private final ZoneId zone;
  private final long delayMillis;
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("sandbox-rail-timer").factory());
  /** Applying an outcome waits on the store: never on the timer thread. */
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();

  public SandboxStkRail(StkOutcomeHandler outcomes, CollectionsProperties properties, Clock clock) {
    this.outcomes = outcomes;
    this.clock = clock;
    this.zone = properties.zone();
    this.delayMillis = properties.sandbox().outcomeDelay().toMillis();
  }

  @Override
  public void sendPrompt(StkPrompt prompt) {
    try {
      timers.schedule(() -> workers.execute(() -> report(prompt)), delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      log.info("sandbox rail stopping; the overdue sweep will answer STK push {}", prompt.requestId());
    }
  }

  @Override
  public void queryOutcome(StkPrompt prompt) {
    report(prompt);
  }

  private void report(StkPrompt prompt) {
    try {
      outcomes.apply(SandboxOutcomes.decide(prompt, clock.instant(), zone));
    } catch (RuntimeException e) {
      log.warn("sandbox outcome of STK push {} not applied; the overdue sweep will retry: {}", prompt.requestId(),
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
