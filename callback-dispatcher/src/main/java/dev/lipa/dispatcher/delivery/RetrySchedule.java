package dev.lipa.dispatcher.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When a failed callback is tried again: a configured list of waits (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h), each stretched or shortened at random by up to {@code jitter}, so callbacks that failed together (a merchant
 * outage) do not all come back at the same instant. A merchant's {@code Retry-After} can lengthen a wait, never
 * shorten it, and never beyond {@code retryAfterCap}. Pure: the caller supplies "now", so a fixed clock and a seeded
 * random make it reproducible.
 */
public final class RetrySchedule {

  private final List<Duration> delays;
  private final double jitter;
  private final Duration retryAfterCap;
  private final RandomGenerator random;

  /**
   * @param random a thread-safe generator ({@link java.util.Random} is); seeded in tests
   */
  public RetrySchedule(List<Duration> delays, double jitter, Duration retryAfterCap, RandomGenerator random) {
    if (!(jitter >= 0 && jitter < 1)) {
      throw new IllegalArgumentException("jitter must be in [0, 1)");
    }
    this.delays = List.copyOf(delays);
    this.jitter = jitter;
    this.retryAfterCap = retryAfterCap;
    this.random = random;
  }

  public RetrySchedule(List<Duration> delays, double jitter, RandomGenerator random) {
    this(delays, jitter, Duration.ofHours(24), random);
  }

  /** The first attempt plus one per configured wait. */
  public int maxAttempts() {
    return delays.size() + 1;
  }

  /**
   * When to make the next attempt after attempt number {@code failedAttempt} (1-based) failed at {@code now}; empty
   * when the schedule is used up.
   */
  public Optional<Instant> nextAttemptAt(int failedAttempt, Instant now) {
    return nextAttemptAt(failedAttempt, now, null);
  }

  /**
   * As {@link #nextAttemptAt(int, Instant)}, honouring a merchant's {@code Retry-After}: the wait is the longer of the
   * scheduled (jittered) wait and {@code retryAfter} capped at {@code retryAfterCap}. A Retry-After never extends the
   * schedule: after the last scheduled attempt the callback is dead whatever the merchant asked.
   */
  public Optional<Instant> nextAttemptAt(int failedAttempt, Instant now, Duration retryAfter) {
    if (failedAttempt < 1) {
      throw new IllegalArgumentException("attempts are numbered from 1");
    }
    if (failedAttempt > delays.size()) {
      return Optional.empty();
    }
    long base = delays.get(failedAttempt - 1).toMillis();
    double factor = jitter == 0 ? 1 : 1 + jitter * (2 * random.nextDouble() - 1);
    long wait = Math.round(base * factor);
    if (retryAfter != null && !retryAfter.isNegative()) {
      long asked = retryAfter.compareTo(retryAfterCap) > 0 ? retryAfterCap.toMillis() : retryAfter.toMillis();
      wait = Math.max(wait, asked);
    }
    return Optional.of(now.plusMillis(wait));
  }
}
