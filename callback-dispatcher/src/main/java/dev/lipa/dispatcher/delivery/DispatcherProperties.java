package dev.lipa.dispatcher.delivery;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the dispatcher delivers callbacks ({@code lipa.dispatcher.*}). Checked when bound, so a bad value stops the
 * service at start-up instead of at the first callback.
 *
 * @param requestTimeout the whole exchange with a merchant (connect, send, status line, bounded body); at most 15 s
 * @param connectTimeout the TCP/TLS connect part of it
 * @param retryDelays the waits after the 1st, 2nd, ... failed attempt; when they are used up the delivery is DEAD
 * @param jitter fraction by which each wait is randomly stretched or shortened (0.1 = +-10%), so retries of many
 *     callbacks that failed together do not arrive together
 * @param pollInterval how often the poller looks for due deliveries
 * @param leaseDuration how long a claimed delivery is reserved for the attempt that claimed it; a process killed
 *     mid-attempt leaves the lease behind and the delivery becomes due again when it expires, so it must outlast
 *     a request
 * @param maxConcurrentAttempts attempts in flight at once across all merchants (per-host limits come later)
 * @param responseSnippetBytes how much of a merchant's answer is read and kept in the attempt log
 */
@ConfigurationProperties("lipa.dispatcher")
public record DispatcherProperties(
    @DefaultValue("10s") Duration requestTimeout,
    @DefaultValue("2s") Duration connectTimeout,
    @DefaultValue({"5s", "30s", "2m", "10m", "30m", "1h", "2h", "5h", "10h"}) List<Duration> retryDelays,
    @DefaultValue("0.1") double jitter,
    @DefaultValue("1s") Duration pollInterval,
    @DefaultValue("30s") Duration leaseDuration,
    @DefaultValue("200") int maxConcurrentAttempts,
    @DefaultValue("1024") int responseSnippetBytes) {

  static final Duration MAX_REQUEST_TIMEOUT = Duration.ofSeconds(15);

  public DispatcherProperties {
    requirePositive("request-timeout", requestTimeout);
    if (requestTimeout.compareTo(MAX_REQUEST_TIMEOUT) > 0) {
      throw new IllegalArgumentException("lipa.dispatcher.request-timeout must be at most 15s, was " + requestTimeout);
    }
    requirePositive("connect-timeout", connectTimeout);
    retryDelays = List.copyOf(retryDelays);
    retryDelays.forEach(delay -> requirePositive("retry-delays", delay));
    if (!(jitter >= 0 && jitter < 1)) {
      throw new IllegalArgumentException("lipa.dispatcher.jitter must be in [0, 1), was " + jitter);
    }
    requirePositive("poll-interval", pollInterval);
    requirePositive("lease-duration", leaseDuration);
    if (leaseDuration.compareTo(requestTimeout) <= 0) {
      // a lease that ends while its attempt is still running lets a second worker send the same callback again
      throw new IllegalArgumentException(
          "lipa.dispatcher.lease-duration must be longer than request-timeout, was " + leaseDuration);
    }
    if (maxConcurrentAttempts < 1) {
      throw new IllegalArgumentException("lipa.dispatcher.max-concurrent-attempts must be at least 1");
    }
    if (responseSnippetBytes < 0 || responseSnippetBytes > 64 * 1024) {
      throw new IllegalArgumentException("lipa.dispatcher.response-snippet-bytes must be in [0, 65536]");
    }
  }

  private static void requirePositive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("lipa.dispatcher." + name + " must be a positive duration, was " + value);
    }
  }
}
