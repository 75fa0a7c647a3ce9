package dev.lipa.payouts.payout.rail.sandbox;

import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.sandbox.DelayedTasks;
import dev.lipa.common.tracing.LogContext;
import dev.lipa.common.tracing.TraceContexts;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutOutcomeHandler;
import dev.lipa.payouts.payout.rail.PayoutRail;
import java.time.Clock;
import java.time.ZoneId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The sandbox payout rail: nothing is paid; after {@code lipa.payouts.sandbox.outcome-delay} it reports the outcome
 * {@link SandboxPayoutOutcomes} decides. Its timers live in memory: a crash loses them and the overdue sweep asks
 * again, which is safe because the outcome is deterministic and applying it is idempotent.
 */
@Component
@ConditionalOnEnvironment(Environment.SANDBOX)
@ConditionalOnProperty(name = "lipa.payouts.sandbox.enabled", havingValue = "true", matchIfMissing = true)
public class SandboxPayoutRail implements PayoutRail, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SandboxPayoutRail.class);

  private final PayoutOutcomeHandler outcomes;
  private final Clock clock;
  private final ZoneId zone;
  private final DelayedTasks timers;
  private final TraceContexts tracing;

  public SandboxPayoutRail(PayoutOutcomeHandler outcomes, PayoutsProperties properties, Clock clock, ObjectProvider<TraceContexts> tracing) {
    this.tracing = tracing.getIfAvailable(() -> TraceContexts.NONE);
    this.outcomes = outcomes;
    this.clock = clock;
    this.zone = properties.zone();
    this.timers = new DelayedTasks("sandbox-payout-timer", properties.sandbox().outcomeDelay());
  }

  @Override
  public void pay(PayoutOrder order) {
    if (!timers.schedule(tracing.carry(() -> report(order)))) {
      log.info("sandbox payout rail stopping; the overdue sweep will answer payout {}", order.requestId());
    }
  }

  @Override
  public void queryOutcome(PayoutOrder order) {
    report(order);
  }

  private void report(PayoutOrder order) {
    try (LogContext context = LogContext.payment(order.organisationId(), order.requestId())) {
      outcomes.apply(SandboxPayoutOutcomes.decide(order, clock.instant(), zone));
    } catch (RuntimeException e) {
      log.warn("sandbox outcome of payout {} not applied; the overdue sweep will retry: {}", order.requestId(),
          e.toString());
    }
  }

  @Override
  public void close() {
    timers.close();
  }
}
