package dev.lipa.collections.stk;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lipa.collections.CollectionsProperties;
import dev.lipa.common.phone.MobileNumber;
import dev.lipa.common.ratelimit.Limit;
import dev.lipa.common.ratelimit.RateLimitExceededException;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.local.LocalBucketBuilder;
import java.util.List;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * How often one phone number may be sent an STK prompt, whoever asks (every organisation, the merchant API and
 * checkout's internal path alike): a customer is not to be spammed. Keyed by the normalised number
 * ({@link MobileNumber#value()}), so every spelling of a number counts against the same bucket.
 *
 * <p>Local Bucket4j buckets in a bounded map, one per number: a store write per push would cost the hot path
 * throughput. With several replicas each enforces its share ({@link Limit#sharedBy}), so the customer is never
 * prompted more often than the limit in total; the map keeps the most used numbers when it is full.
 */
@Component
public class PhonePromptLimits {

  static final String MESSAGE = "Too many payment prompts were sent to this phone number; try again later";

  private final TimeMeter clock;
  private volatile Buckets buckets;

  @Autowired
  public PhonePromptLimits(CollectionsProperties properties) {
    this(properties.promptLimits(), TimeMeter.SYSTEM_MILLISECONDS);
  }

  PhonePromptLimits(CollectionsProperties.PromptLimits settings, TimeMeter clock) {
    this.clock = clock;
    this.buckets = Buckets.of(settings);
  }

  /**
   * Starts afresh with other settings. For the integration tests, whose one shared service runs with raised limits
   * (a second service in the same JVM would share its consumer groups) and whose limit tests set the real ones.
   */
  void reconfigure(CollectionsProperties.PromptLimits settings) {
    this.buckets = Buckets.of(settings);
  }

  /**
   * Takes one prompt of the number's allowance.
   *
   * @throws RateLimitExceededException (429) when the number has had its prompts for now
   */
  public Permit acquire(MobileNumber number) {
    Buckets current = buckets;
    Bucket bucket = current.map().get(number.value(), key -> current.newBucket(clock));
    ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
    if (!probe.isConsumed()) {
      throw RateLimitExceededException.afterNanos(MESSAGE, probe.getNanosToWaitForRefill());
    }
    return new Permit(bucket);
  }

  /** The buckets of every number, and the bandwidths each new one gets (shared: they are immutable). */
  private record Buckets(List<Bandwidth> shares, Cache<String, Bucket> map) {

    static Buckets of(CollectionsProperties.PromptLimits settings) {
      List<Limit> limits = settings.limits().stream().map(limit -> limit.sharedBy(settings.replicas())).toList();
      // an idle bucket is full again after its slowest refill: from then on it carries nothing and may go. One set
      // of bandwidths for every bucket: a number's bucket costs about 400 bytes
      return new Buckets(limits.stream().map(Limit::bandwidth).toList(), Caffeine.newBuilder()
          .maximumSize(settings.maxNumbers()).expireAfterAccess(Limit.longestRefill(limits)).build());
    }

    Bucket newBucket(TimeMeter clock) {
      LocalBucketBuilder builder = Bucket.builder().withCustomTimePrecision(clock);
      shares.forEach(builder::addLimit);
      return builder.build();
    }
  }

  /** A prompt taken from a number's allowance; given back when no prompt is sent after all (a replay, a failure). */
  public static final class Permit {

    private final Bucket bucket;

    private Permit(Bucket bucket) {
      this.bucket = bucket;
    }

    public void giveBack() {
      bucket.addTokens(1);
    }
  }
}
