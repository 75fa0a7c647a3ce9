package dev.lipa.collections;

import java.time.Duration;
import java.time.ZoneId;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of collections-service ({@code lipa.collections.*}), checked at start-up.
 *
 * @param zone the zone of the local date-times shown in records
 * @param outbox how the outbox sweeper republishes what a crash left behind
 * @param sandbox the sandbox rail simulator
 * @param overdue when a PENDING push counts as overdue and its outcome is asked for again
 */
@ConfigurationProperties("lipa.collections")
public record CollectionsProperties(
    @DefaultValue("Africa/Nairobi") ZoneId zone,
    @DefaultValue Outbox outbox,
    @DefaultValue Sandbox sandbox,
    @DefaultValue Overdue overdue) {

  /**
   * @param sweepInterval how often stale outbox events are looked for
   * @param gracePeriod how long an event may wait for its acknowledgement before the sweeper republishes it
   * @param sweepBatch documents per sweep
   */
  public record Outbox(
      @DefaultValue("5s") Duration sweepInterval,
      @DefaultValue("30s") Duration gracePeriod,
      @DefaultValue("500") int sweepBatch) {

    public Outbox {
      positive("lipa.collections.outbox.sweep-interval", sweepInterval);
      positive("lipa.collections.outbox.grace-period", gracePeriod);
      if (sweepBatch < 1) {
        throw new IllegalArgumentException("lipa.collections.outbox.sweep-batch must be at least 1");
      }
    }
  }

  /**
   * @param enabled whether this service runs the sandbox rail (the only rail so far)
   * @param outcomeDelay how long the simulated customer takes to answer the prompt
   */
  public record Sandbox(@DefaultValue("true") boolean enabled, @DefaultValue("3s") Duration outcomeDelay) {

    public Sandbox {
      if (outcomeDelay.isNegative()) {
        throw new IllegalArgumentException("lipa.collections.sandbox.outcome-delay must not be negative");
      }
    }
  }

  /**
   * @param after age of a PENDING push after which its outcome is asked for again (a crash lost the timer or the
   *     rail's answer); must exceed the rail's normal answer time
   * @param sweepInterval how often overdue pushes are looked for
   * @param sweepBatch pushes per sweep
   */
  public record Overdue(
      @DefaultValue("60s") Duration after,
      @DefaultValue("10s") Duration sweepInterval,
      @DefaultValue("100") int sweepBatch) {

    public Overdue {
      positive("lipa.collections.overdue.after", after);
      positive("lipa.collections.overdue.sweep-interval", sweepInterval);
      if (sweepBatch < 1) {
        throw new IllegalArgumentException("lipa.collections.overdue.sweep-batch must be at least 1");
      }
    }
  }

  private static void positive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration");
    }
  }
}
