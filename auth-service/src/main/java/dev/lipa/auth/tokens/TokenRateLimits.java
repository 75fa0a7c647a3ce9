package dev.lipa.auth.tokens;

import dev.lipa.common.ratelimit.Limit;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How failed token requests are throttled ({@code lipa.auth.rate-limits.*}); each is a list of limits that must all
 * have a token left (see {@link Limit}). Only failures spend tokens; while a bucket is empty every request of its key is
 * answered 429 before any secret is checked.
 *
 * @param getTokenFailures wrong credentials per (API key, client address): by default 5 free, then one a minute, and
 *     after 20 in all one an hour (a growing back-off)
 * @param getTokenFailuresPerAddress wrong credentials per client address, whatever the key (guessing across many
 *     keys): by default 50, then one every 30 seconds
 * @param refreshFailures invalid refresh tokens per client address: by default 20, then one a minute
 */
@ConfigurationProperties("lipa.auth.rate-limits")
record TokenRateLimits(
    List<Limit> getTokenFailures,
    List<Limit> getTokenFailuresPerAddress,
    List<Limit> refreshFailures) {

  TokenRateLimits {
    getTokenFailures = orDefault(getTokenFailures, List.of(
        new Limit(5, 1, Duration.ofMinutes(1)), new Limit(20, 1, Duration.ofHours(1))));
    getTokenFailuresPerAddress = orDefault(getTokenFailuresPerAddress,
        List.of(new Limit(50, 1, Duration.ofSeconds(30))));
    refreshFailures = orDefault(refreshFailures, List.of(new Limit(20, 1, Duration.ofMinutes(1))));
  }

  private static List<Limit> orDefault(List<Limit> limits, List<Limit> defaults) {
    return limits == null || limits.isEmpty() ? defaults : List.copyOf(limits);
  }
}
