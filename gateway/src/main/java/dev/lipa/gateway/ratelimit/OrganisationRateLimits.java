package dev.lipa.gateway.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ratelimit.Limit;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.TokensInheritanceStrategy;
import java.time.Duration;
import java.util.List;

/**
 * This gateway's share of every organisation's request limit: one local Bucket4j bucket per organisation in a bounded
 * map, so the hot path writes nothing shared. With {@code replicas} gateways each admits {@code limit / replicas} per
 * second and a burst of {@code limit × burstSeconds / replicas}; spread evenly over the replicas (as a load balancer
 * does), the organisation's total is its limit.
 *
 * <p>The limit comes with each request (the token's claim, or the default): when it changes, the bucket keeps its
 * tokens and takes the new rate, so a change costs no free burst.
 */
public final class OrganisationRateLimits {

  private final Cache<OrganisationId, Entry> buckets;
  private final int defaultPerSecond;
  private final int burstSeconds;
  private final int replicas;
  private final TimeMeter clock;

  public OrganisationRateLimits(OrganisationLimitProperties properties, int replicas) {
    this(properties, replicas, TimeMeter.SYSTEM_MILLISECONDS);
  }

  OrganisationRateLimits(OrganisationLimitProperties properties, int replicas, TimeMeter clock) {
    this.defaultPerSecond = properties.requestsPerSecond();
    this.burstSeconds = properties.burstSeconds();
    this.replicas = replicas;
    this.clock = clock;
    this.buckets = Caffeine.newBuilder().maximumSize(properties.maxOrganisations())
        .expireAfterAccess(properties.idleAfter()).build();
  }

  /** Takes one request of the organisation's share here; {@code requestsPerSecond} null means the default. */
  public ConsumptionProbe tryConsume(OrganisationId organisationId, Integer requestsPerSecond) {
    int perSecond = requestsPerSecond == null ? defaultPerSecond : requestsPerSecond;
    Entry entry = buckets.get(organisationId, id -> new Entry(perSecond, Bucket.builder()
        .addLimit(share(perSecond).bandwidth()).withCustomTimePrecision(clock).build()));
    if (entry.perSecond != perSecond) {
      entry.reconfigure(perSecond, configuration(perSecond));
    }
    return entry.bucket.tryConsumeAndReturnRemaining(1);
  }

  /** This replica's share of a limit of {@code perSecond}. */
  Limit share(int perSecond) {
    return new Limit((long) perSecond * burstSeconds, perSecond, Duration.ofSeconds(1)).sharedBy(replicas);
  }

  private BucketConfiguration configuration(int perSecond) {
    return Limit.configuration(List.of(share(perSecond)));
  }

  private static final class Entry {

    private final Bucket bucket;
    private volatile int perSecond;

    Entry(int perSecond, Bucket bucket) {
      this.perSecond = perSecond;
      this.bucket = bucket;
    }

    synchronized void reconfigure(int newPerSecond, BucketConfiguration configuration) {
      if (perSecond != newPerSecond) {
        bucket.replaceConfiguration(configuration, TokensInheritanceStrategy.AS_IS);
        perSecond = newPerSecond;
      }
    }
  }
}
