package dev.lipa.common.outbox;

import java.time.Duration;

/**
 * How an {@link Outbox} sweeps what a crash left behind, and how long it may hold back an acknowledgement.
 *
 * @param sweepInterval how often the sweeper looks for stale events
 * @param gracePeriod how old {@code outboxPendingSince} must be before the sweeper republishes; longer than a normal
 *     publish-and-acknowledge round trip, so that the sweeper rarely duplicates what the writer is still publishing
 * @param sweepBatch at most this many documents per sweep
 * @param ackDelay how long the removal of events Kafka has acknowledged may wait for the document's next state change,
 *     which then carries it (one store write fewer); when no change comes in time, the removal is written on its own.
 *     Zero writes every removal at once. At most half the grace period, so the sweeper never mistakes a held-back
 *     acknowledgement for a crash.
 */
public record OutboxSettings(Duration sweepInterval, Duration gracePeriod, int sweepBatch, Duration ackDelay) {

  /** The acknowledgement delay when none is given: longer than the sandbox rails' outcome delay (3 s). */
  public static final Duration DEFAULT_ACK_DELAY = Duration.ofSeconds(5);

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
    if (ackDelay.isNegative()) {
      throw new IllegalArgumentException("ackDelay must not be negative");
    }
    if (ackDelay.compareTo(gracePeriod.dividedBy(2)) > 0) {
      ackDelay = gracePeriod.dividedBy(2);
    }
  }

  /** Settings with the {@link #DEFAULT_ACK_DELAY} (capped at half the grace period). */
  public OutboxSettings(Duration sweepInterval, Duration gracePeriod, int sweepBatch) {
    this(sweepInterval, gracePeriod, sweepBatch, DEFAULT_ACK_DELAY);
  }
}
