package dev.lipa.collections.stk.rail.sandbox;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.stk.rail.StkOutcomeHandler;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRail;
import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.sandbox.DelayedTasks;
import dev.lipa.common.tracing.LogContext;
import dev.lipa.common.tracing.TraceContexts;
import java.time.Clock;
import java.time.ZoneId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The sandbox rail: no phone is prompted; after {@code lipa.collections.sandbox.outcome-delay} it reports the outcome
 * {@link SandboxOutcomes} decides. Its timers live in memory: a crash loses them and the overdue sweep asks again,
 * which is safe because the outcome is deterministic and applying it is a compare-and-set.
 */
@Component
@ConditionalOnEnvironment(Environment.SANDBOX)
@ConditionalOnProperty(name = "lipa.collections.sandbox.enabled", havingValue = "true", matchIfMissing = true)
public class SandboxStkRail implements StkRail, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SandboxStkRail.class);

  private final StkOutcomeHandler outcomes;
  private final Clock clock;
  private final ZoneId zone;
  private final DelayedTasks timers;
  private final TraceContexts tracing;

  public SandboxStkRail(StkOutcomeHandler outcomes, CollectionsProperties properties, Clock clock, ObjectProvider<TraceContexts> tracing) {
    this.tracing = tracing.getIfAvailable(() -> TraceContexts.NONE);
    this.outcomes = outcomes;
    this.clock = clock;
    this.zone = properties.zone();
    this.timers = new DelayedTasks("sandbox-rail-timer", properties.sandbox().outcomeDelay());
  }

  @Override
  public boolean answersInProcess() {
    return true;
  }

  @Override
  public void sendPrompt(StkPrompt prompt) {
    if (!timers.schedule(tracing.carry(() -> report(prompt)))) {
      log.info("sandbox rail stopping; the overdue sweep will answer STK push {}", prompt.requestId());
    }
  }

  @Override
  public void queryOutcome(StkPrompt prompt) {
    report(prompt);
  }

  private void report(StkPrompt prompt) {
    try (LogContext context = LogContext.payment(prompt.organisationId(), prompt.requestId())) {
      outcomes.apply(SandboxOutcomes.decide(prompt, clock.instant(), zone));
    } catch (RuntimeException e) {
      log.warn("sandbox outcome of STK push {} not applied; the overdue sweep will retry: {}", prompt.requestId(),
          e.toString());
    }
  }

  @Override
  public void close() {
    timers.close();
  }
}
