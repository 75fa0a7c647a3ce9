package dev.lipa.auth.tokens;

import dev.lipa.common.ratelimit.Limit;
import dev.lipa.common.ratelimit.MongoProxyManager;
import dev.lipa.common.ratelimit.RateLimitExceededException;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import io.github.bucket4j.distributed.BucketProxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Throttles failed token requests in buckets shared by every auth-service replica ({@link MongoProxyManager}, in this
 * service's database, which every replica uses): {@code get-token} per (API key, client address) and per client
 * address, {@code refresh-token} per client address.
 *
 * <p>The order is what makes it protect anything: a request whose bucket is empty is refused <em>before</em> its secret
 * is checked. Only failures spend tokens. A request whose buckets have no recent failure (no bucket stored) costs one
 * read for all its buckets; when a failure left a bucket, the request takes a token from each first (so that many
 * concurrent guesses cannot all pass one read) and gives them back if it succeeds. A burst of concurrent failures
 * against fresh buckets is recorded in full (the buckets go below zero), so it is paid for in waiting time.
 *
 * <p>Keying by address as well as key is what stops a lockout: the API key id is not secret, so failures from one
 * address never throttle another address using the same key.
 */
@Component
class TokenThrottle {

  static final String MESSAGE = "Too many failed attempts; try again later";

  private final MongoProxyManager buckets;
  private final BucketConfiguration perKey;
  private final BucketConfiguration perAddress;
  private final BucketConfiguration refresh;

  TokenThrottle(MongoProxyManager buckets, TokenRateLimits limits) {
    this.buckets = buckets;
    this.perKey = Limit.configuration(limits.getTokenFailures());
    this.perAddress = Limit.configuration(limits.getTokenFailuresPerAddress());
    this.refresh = Limit.configuration(limits.refreshFailures());
  }

  /** A get-token request with this key from this address; refused with 429 while either bucket is empty. */
  Attempt getToken(String apiKey, String address) {
    Map<String, BucketConfiguration> keys = new LinkedHashMap<>();
    keys.put("get-token|key|" + apiKey + "|" + address, perKey);
    keys.put("get-token|address|" + address, perAddress);
    return begin(keys);
  }

  /** A refresh-token request from this address; refused with 429 while its bucket is empty. */
  Attempt refresh(String address) {
    return begin(Map.of("refresh-token|address|" + address, refresh));
  }

  private Attempt begin(Map<String, BucketConfiguration> keys) {
    Map<String, EstimationProbe> stored = buckets.estimate(keys.keySet(), 1);
    long wait = stored.values().stream().filter(p -> !p.canBeConsumed())
        .mapToLong(EstimationProbe::getNanosToWaitForRefill).max().orElse(-1);
    if (wait >= 0) {
      throw RateLimitExceededException.afterNanos(MESSAGE, wait);
    }
    List<BucketProxy> proxies = new ArrayList<>();
    keys.forEach((key, configuration) -> proxies.add(buckets.builder().build(key, () -> configuration)));
    if (stored.isEmpty()) {
      return new Attempt(proxies, false);
    }
    List<BucketProxy> taken = new ArrayList<>();
    for (BucketProxy bucket : proxies) {
      ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
      if (!probe.isConsumed()) {
        taken.forEach(t -> t.addTokens(1));
        throw RateLimitExceededException.afterNanos(MESSAGE, probe.getNanosToWaitForRefill());
      }
      taken.add(bucket);
    }
    return new Attempt(proxies, true);
  }

  /** A request let through: say how it ended. */
  static final class Attempt {

    private final List<BucketProxy> buckets;
    private final boolean reserved;

    private Attempt(List<BucketProxy> buckets, boolean reserved) {
      this.buckets = buckets;
      this.reserved = reserved;
    }

    /** The credentials were wrong: the attempt costs a token of every bucket. */
    void failed() {
      if (!reserved) {
        buckets.forEach(b -> b.consumeIgnoringRateLimits(1));
      }
    }

    /** The request succeeded, or failed for another reason than its credentials: nothing is spent. */
    void release() {
      if (reserved) {
        buckets.forEach(b -> b.addTokens(1));
      }
    }
  }
}
