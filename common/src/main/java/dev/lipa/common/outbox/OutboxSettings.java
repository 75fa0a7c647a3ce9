package dev.lipa.common.outbox;

import java.time.Duration;

/**
 * How an {@link Outbox} sweeps what a crash left behind.
 *
 * @param sweepInterval how often the sweeper looks for stale events
 * @param gracePeriod how old {@code outboxPendingSince} must be before the sweeper republishes; longer than a normal
 *     publish-and-acknowledge round trip, so that the sweeper rarely duplicates what the writer is still publishing
 * @param sweepBatch at most this many documents per sweep
 */
public record OutboxSettings(Duration sweepInterval, Duration gracePeriod, int sweepBatch) {

  public static final OutboxSettings DEFAULTS = new OutboxSettings(Duration.ofSeconds(5), Duration.ofSeconds(30), 500);

  public OutboxSettings {
    if (sweepInterval.isNegative() || sweepInterval.isZero()) {
      throw new IllegalArgumentException("sweepInterval must be positive");
    }
    if (gracePeriod.isNegative()) {
      throw new IllegalArgumentException("gracePeriod must not be negative");
    }
    if (sweepBatch < 1) {
      throw new IllegalArgumentException("sweepBatch must be at least 1");
    }
  }
}
