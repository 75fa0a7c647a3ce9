package dev.lipa.common.outbox;

import java.time.Duration;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How an {@link Outbox} sweeps what a crash left behind, and how long it may hold back an acknowledgement. Bound once
 * per service as the nested {@code outbox} settings of its own prefix ({@code lipa.collections.outbox.*},
 * {@code lipa.payouts.outbox.*}, ...), checked at start-up.
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
public record OutboxSettings(
    @DefaultValue("5s") Duration sweepInterval,
    @DefaultValue("30s") Duration gracePeriod,
    @DefaultValue("500") int sweepBatch,
    @DefaultValue("5s") Duration ackDelay) {

  /** The acknowledgement delay when none is given: longer than the sandbox rails' outcome delay (3 s). */
  public static final Duration DEFAULT_ACK_DELAY = Duration.ofSeconds(5);

  public static final OutboxSettings DEFAULTS = new OutboxSettings(Duration.ofSeconds(5), Duration.ofSeconds(30), 500);

  @ConstructorBinding
  public OutboxSettings {
    if (sweepInterval == null || sweepInterval.isNegative() || sweepInterval.isZero()) {
      throw new IllegalArgumentException("the outbox sweep-interval must be a positive duration");
    }
    if (gracePeriod == null || gracePeriod.isNegative() || gracePeriod.isZero()) {
      throw new IllegalArgumentException("the outbox grace-period must be a positive duration");
    }
    if (sweepBatch < 1) {
      throw new IllegalArgumentException("the outbox sweep-batch must be at least 1");
    }
    if (ackDelay == null || ackDelay.isNegative()) {
      throw new IllegalArgumentException("the outbox ack-delay must not be negative");
    }
    if (ackDelay.compareTo(gracePeriod.dividedBy(2)) > 0) {
      ackDelay = gracePeriod.dividedBy(2);
    }
  }

  /** Settings with the {@link #DEFAULT_ACK_DELAY} (capped at half the grace period). */
  public OutboxSettings(Duration sweepInterval, Duration gracePeriod, int sweepBatch) {
    this(sweepInterval, gracePeriod, sweepBatch, DEFAULT_ACK_DELAY);
  }

  /**
   * A service's settings record that carries these settings as its {@code outbox} component: the one thing the
   * outbox's auto-configuration needs from the service.
   */
  public interface Source {

    OutboxSettings outbox();
  }
}
