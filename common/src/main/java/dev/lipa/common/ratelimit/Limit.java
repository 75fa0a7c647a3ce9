package dev.lipa.common.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConfigurationBuilder;
import java.time.Duration;
import java.util.List;

/**
 * One bandwidth of a token bucket, as settings write it: {@code capacity} tokens at most, {@code refillTokens} back
 * every {@code refillPeriod}, added gradually (Bucket4j's greedy refill). Several limits on one bucket must all have a
 * token for a request to pass, which is how a burst allowance and a slower long-term rate combine.
 *
 * @param capacity the burst: tokens a full bucket holds
 * @param refillTokens tokens given back per period
 * @param refillPeriod the period
 */
public record Limit(long capacity, long refillTokens, Duration refillPeriod) {

  public Limit {
    if (capacity < 1 || refillTokens < 1 || refillPeriod == null || refillPeriod.isNegative()
        || refillPeriod.isZero()) {
      throw new IllegalArgumentException("a limit needs capacity >= 1, refill-tokens >= 1 and a positive"
          + " refill-period; was " + capacity + ", " + refillTokens + ", " + refillPeriod);
    }
  }

  /** {@code tokens} per {@code period}, as a burst too: e.g. 3 a minute. */
  public static Limit perPeriod(long tokens, Duration period) {
    return new Limit(tokens, tokens, period);
  }

  /**
   * This limit's share on one of {@code replicas} replicas enforcing it each on their own: the same refill spread over
   * {@code replicas} times the period (so the rates add up exactly) and the capacity divided, rounded down but at
   * least 1 (so the replicas' bursts together never pass the limit's, except that each keeps one token).
   */
  public Limit sharedBy(int replicas) {
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
    }
    if (replicas == 1) {
      return this;
    }
    return new Limit(Math.max(1, capacity / replicas), refillTokens, refillPeriod.multipliedBy(replicas));
  }

  /** How long an emptied bucket of this limit takes to be full again. */
  public Duration timeToRefill() {
    return refillPeriod.multipliedBy(capacity).dividedBy(refillTokens).plusNanos(1);
  }

  public Bandwidth bandwidth() {
    return Bandwidth.builder().capacity(capacity).refillGreedy(refillTokens, refillPeriod).build();
  }

  /** A bucket configuration with every limit as a bandwidth. */
  public static BucketConfiguration configuration(List<Limit> limits) {
    if (limits == null || limits.isEmpty()) {
      throw new IllegalArgumentException("a bucket needs at least one limit");
    }
    ConfigurationBuilder builder = BucketConfiguration.builder();
    limits.forEach(limit -> builder.addLimit(limit.bandwidth()));
    return builder.build();
  }

  /** The longest time any of the limits takes to refill: how long an idle bucket still carries information. */
  public static Duration longestRefill(List<Limit> limits) {
    return limits.stream().map(Limit::timeToRefill).max(Duration::compareTo).orElse(Duration.ZERO);
  }

  @Override
  public String toString() {
    return capacity + " (then " + refillTokens + " per " + refillPeriod + ")";
  }
}
