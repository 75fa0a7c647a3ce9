package dev.lipa.common.rail;

import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * When a PENDING record a rail has not answered counts as overdue and its outcome is asked for again (a crash lost
 * the timer or the rail's answer). Bound as the nested {@code overdue} settings of a service's own prefix
 * ({@code lipa.collections.overdue.*}, {@code lipa.payouts.overdue.*}), checked at start-up.
 *
 * @param after age of a PENDING record after which its outcome is asked for again; must exceed the rail's normal
 *     answer time
 * @param sweepInterval how often overdue records are looked for
 * @param sweepBatch records per sweep
 */
public record OverdueSettings(
    @DefaultValue("60s") Duration after,
    @DefaultValue("10s") Duration sweepInterval,
    @DefaultValue("100") int sweepBatch) {

  public OverdueSettings {
    positive("after", after);
    positive("sweep-interval", sweepInterval);
    if (sweepBatch < 1) {
      throw new IllegalArgumentException("the overdue sweep-batch must be at least 1");
    }
  }

  private static void positive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("the overdue " + name + " must be a positive duration");
    }
  }
}
