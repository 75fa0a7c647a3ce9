package dev.lipa.common.idempotency;

import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long idempotency keys live and how they are looked after. Bound once per service as the nested
 * {@code idempotency} settings of its own prefix ({@code lipa.collections.idempotency.*}, ...), checked at start-up.
 *
 * @param retention how long a key and its stored response are kept (at least 24 h, as Stripe keeps them)
 * @param lease how long a claimed key counts as in flight before a retry may take it over (the claimant died)
 * @param cleanupInterval how often expired keys are deleted (the embedded store ignores TTL indexes)
 */
public record IdempotencySettings(
    @DefaultValue("24h") Duration retention,
    @DefaultValue("30s") Duration lease,
    @DefaultValue("10m") Duration cleanupInterval) {

  public static final Duration MINIMUM_RETENTION = Duration.ofHours(24);

  public IdempotencySettings {
    if (retention == null || retention.compareTo(MINIMUM_RETENTION) < 0) {
      throw new IllegalArgumentException("idempotency keys must be kept at least 24h");
    }
    if (lease == null || lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("the idempotency lease must be a positive duration");
    }
    if (cleanupInterval == null || cleanupInterval.isNegative() || cleanupInterval.isZero()) {
      throw new IllegalArgumentException("the idempotency clean-up interval must be a positive duration");
    }
  }

  /** 24 h retention, a 30 s lease, clean-up every 10 minutes. */
  public static IdempotencySettings defaults() {
    return new IdempotencySettings(MINIMUM_RETENTION, Duration.ofSeconds(30), Duration.ofMinutes(10));
  }

  /**
   * A service's settings record that carries these settings as its {@code idempotency} component: the one thing the
   * idempotency auto-configuration needs from the service.
   */
  public interface Source {

    IdempotencySettings idempotency();
  }
}
