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
 * @param retryAfterCap the longest wait a merchant's Retry-After can ask for
 * @param pollInterval how often the poller looks for due deliveries
 * @param leaseDuration how long a claimed delivery is reserved for the attempt that claimed it; a process killed
 *     mid-attempt leaves the lease behind and the delivery becomes due again when it expires, so it must outlast
 *     a request
 * @param maxConcurrentAttempts attempts in flight at once across all merchants
 * @param perHostConcurrency attempts in flight at once to one destination (host and port)
 * @param hostPermitWait how long an attempt waits for a busy destination before it is deferred
 * @param deferDelay how far a deferred delivery (destination busy or its circuit open) is pushed back; a deferral
 *     is not an attempt and does not use up the schedule
 * @param breakerFailureRate percentage of failed calls (no answer, 5xx, 429) that opens a destination's circuit
 * @param breakerWindow how many recent calls per destination the failure rate is computed over
 * @param breakerMinimumCalls calls needed before the failure rate counts
 * @param breakerOpenDuration how long an open circuit defers everything before letting trial calls through
 * @param responseSnippetBytes how much of a merchant's answer is read and kept in the attempt log
 * @param attemptLogLimit how many attempts a delivery's log keeps (the latest ones)
 */
@ConfigurationProperties("lipa.dispatcher")
public record DispatcherProperties(
    @DefaultValue("10s") Duration requestTimeout,
    @DefaultValue("2s") Duration connectTimeout,
    @DefaultValue({"5s", "5m", "30m", "2h", "5h", "10h", "10h"}) List<Duration> retryDelays,
    @DefaultValue("0.1") double jitter,
    @DefaultValue("24h") Duration retryAfterCap,
    @DefaultValue("1s") Duration pollInterval,
    @DefaultValue("30s") Duration leaseDuration,
    @DefaultValue("200") int maxConcurrentAttempts,
    @DefaultValue("32") int perHostConcurrency,
    @DefaultValue("250ms") Duration hostPermitWait,
    @DefaultValue("1s") Duration deferDelay,
    @DefaultValue("50") int breakerFailureRate,
    @DefaultValue("20") int breakerWindow,
    @DefaultValue("10") int breakerMinimumCalls,
    @DefaultValue("30s") Duration breakerOpenDuration,
    @DefaultValue("1024") int responseSnippetBytes,
    @DefaultValue("50") int attemptLogLimit) {

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
    requirePositive("retry-after-cap", retryAfterCap);
    requirePositive("poll-interval", pollInterval);
    requirePositive("lease-duration", leaseDuration);
    if (leaseDuration.compareTo(requestTimeout.plus(hostPermitWait)) <= 0) {
      // a lease that ends while its attempt is still running lets a second worker send the same callback again
      throw new IllegalArgumentException("lipa.dispatcher.lease-duration must be longer than request-timeout plus "
          + "host-permit-wait, was " + leaseDuration);
    }
    requireAtLeastOne("max-concurrent-attempts", maxConcurrentAttempts);
    requireAtLeastOne("per-host-concurrency", perHostConcurrency);
    requirePositive("defer-delay", deferDelay);
    if (hostPermitWait == null || hostPermitWait.isNegative()) {
      throw new IllegalArgumentException("lipa.dispatcher.host-permit-wait must not be negative");
    }
    if (breakerFailureRate < 1 || breakerFailureRate > 100) {
      throw new IllegalArgumentException("lipa.dispatcher.breaker-failure-rate must be in [1, 100]");
    }
    requireAtLeastOne("breaker-window", breakerWindow);
    requireAtLeastOne("breaker-minimum-calls", breakerMinimumCalls);
    requirePositive("breaker-open-duration", breakerOpenDuration);
    if (responseSnippetBytes < 0 || responseSnippetBytes > 64 * 1024) {
      throw new IllegalArgumentException("lipa.dispatcher.response-snippet-bytes must be in [0, 65536]");
    }
    requireAtLeastOne("attempt-log-limit", attemptLogLimit);
  }

  private static void requirePositive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("lipa.dispatcher." + name + " must be a positive duration, was " + value);
    }
  }

  private static void requireAtLeastOne(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException("lipa.dispatcher." + name + " must be at least 1, was " + value);
    }
  }
}
