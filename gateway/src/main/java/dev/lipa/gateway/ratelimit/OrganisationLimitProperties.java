package dev.lipa.gateway.ratelimit;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Requests per organisation ({@code lipa.gateway.rate-limit.*}), checked at start-up.
 *
 * @param requestsPerSecond the platform's default limit; an organisation's own (set by the platform team) comes in
 *     the {@code rps} claim of its access tokens
 * @param burstSeconds how many seconds of its limit an organisation may send at once (a full bucket)
 * @param maxOrganisations how many organisations' buckets one gateway keeps (least recently used go first)
 * @param idleAfter how long a bucket stays after its organisation's last request; it must exceed the time a bucket
 *     takes to refill, or a bucket could be dropped before it is full again
 */
@ConfigurationProperties("lipa.gateway.rate-limit")
public record OrganisationLimitProperties(
    @DefaultValue("50") int requestsPerSecond,
    @DefaultValue("2") int burstSeconds,
    @DefaultValue("100000") int maxOrganisations,
    @DefaultValue("2m") Duration idleAfter) {

  public OrganisationLimitProperties {
    if (requestsPerSecond < 1 || burstSeconds < 1 || maxOrganisations < 1) {
      throw new IllegalArgumentException("lipa.gateway.rate-limit.requests-per-second, burst-seconds and"
          + " max-organisations must be at least 1");
    }
    if (idleAfter == null || idleAfter.isNegative() || idleAfter.isZero()) {
      throw new IllegalArgumentException("lipa.gateway.rate-limit.idle-after must be positive");
    }
  }
}
