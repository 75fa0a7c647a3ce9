package dev.lipa.common.kafka;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * How long a listener waits between attempts at a record that failed for a reason not proven deterministic
 * ({@code lipa.kafka.listeners.*}): {@code initial-interval} doubling ({@code multiplier}) up to {@code max-interval},
 * for ever. The consumer is paused meanwhile, so no wait holds a thread past {@code max.poll.interval.ms}.
 */
@ConfigurationProperties("lipa.kafka.listeners")
public record ListenerRetrySettings(
    @DefaultValue("200ms") Duration initialInterval,
    @DefaultValue("2.0") double multiplier,
    @DefaultValue("30s") Duration maxInterval) {

  public ListenerRetrySettings {
    if (initialInterval.isNegative() || initialInterval.isZero() || maxInterval.compareTo(initialInterval) < 0) {
      throw new IllegalArgumentException(
          "lipa.kafka.listeners: initial-interval must be positive and at most max-interval");
    }
    if (!(multiplier >= 1.0)) {
      throw new IllegalArgumentException("lipa.kafka.listeners.multiplier must be at least 1");
    }
  }

  /** The platform's back-off: capped exponential, no limit on attempts nor on the time they take. */
  public BackOff backOff() {
    ExponentialBackOff backOff = new ExponentialBackOff(initialInterval.toMillis(), multiplier);
    backOff.setMaxInterval(maxInterval.toMillis());
    backOff.setMaxElapsedTime(Long.MAX_VALUE);
    backOff.setMaxAttempts(Long.MAX_VALUE);
    return backOff;
  }

  /** The wait after the {@code attempt}-th failure in a row (1 for the first), as {@link #backOff()} paces it. */
  public long millisAfter(int attempt) {
    double millis = initialInterval.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
    return (long) Math.min(millis, maxInterval.toMillis());
  }
}
