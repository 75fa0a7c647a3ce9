package dev.lipa.common.ratelimit;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The rate-limit mechanism's settings ({@code lipa.rate-limits.*}), checked at start-up.
 *
 * @param trustedProxies the proxies whose {@code X-Forwarded-For} is believed (CIDR blocks or addresses); by default
 *     this machine only, where the local gateway runs. In a cluster: the gateways' and load balancers' networks
 * @param store the shared bucket store
 */
@ConfigurationProperties("lipa.rate-limits")
public record RateLimitProperties(
    @DefaultValue({"127.0.0.0/8", "::1/128"}) List<String> trustedProxies,
    @DefaultValue Store store) {

  public RateLimitProperties {
    trustedProxies = trustedProxies == null ? ClientAddresses.LOOPBACK : List.copyOf(trustedProxies);
    new ClientAddresses(trustedProxies); // refuses a malformed block at start-up
  }

  /**
   * @param enabled whether this service keeps buckets in its database (only services that enforce shared limits)
   * @param collection the collection of the buckets
   * @param keepAfterRefill how long a bucket is kept after it would be full again
   * @param sweepInterval how often expired buckets are deleted (the embedded store ignores TTL indexes)
   */
  public record Store(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("rate_limit_buckets") String collection,
      @DefaultValue("1m") Duration keepAfterRefill,
      @DefaultValue("1m") Duration sweepInterval) {

    public Store {
      if (collection == null || collection.isBlank()) {
        throw new IllegalArgumentException("lipa.rate-limits.store.collection must not be blank");
      }
      if (keepAfterRefill == null || keepAfterRefill.isNegative() || sweepInterval == null
          || sweepInterval.isNegative() || sweepInterval.isZero()) {
        throw new IllegalArgumentException(
            "lipa.rate-limits.store.keep-after-refill must not be negative, sweep-interval must be positive");
      }
    }
  }
}
