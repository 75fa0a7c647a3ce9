package dev.lipa.common.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * The payment counters and the outcome latency, counted where a payment's state really changes (the store write that
 * created it, the compare-and-set that finished it), so a replayed request or a duplicate outcome counts nothing:
 * <ul>
 *   <li>{@value #PAYMENTS} (counter; tags {@code kind}, {@code country}, {@code outcome}: {@code accepted},
 *       {@code succeeded}, {@code failed});</li>
 *   <li>{@value #OUTCOME_LATENCY} (timer; tags {@code kind}, {@code country}, {@code outcome}): from the payment's
 *       acceptance to its final state, with a few fixed histogram buckets (1 s to 30 min) for the dashboard's
 *       95th percentile; the only histogram of the platform, since outcomes are few compared with HTTP requests.</li>
 * </ul>
 * The country is the ISO 3166 code of the rail's country ({@code KE}, {@code TZ}, {@code UG}), anything else is
 * counted as {@code other}: the tag values are a closed set.
 */
public final class PaymentMetrics {

  public static final String PAYMENTS = "lipa.payments";
  public static final String OUTCOME_LATENCY = "lipa.payment.outcome.latency";
  private static final Set<String> COUNTRIES = Set.of("KE", "TZ", "UG");
  private static final Duration[] BUCKETS = {Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5),
      Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5),
      Duration.ofMinutes(30)};

  private final MeterRegistry registry;

  public PaymentMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Counters kept in a registry of their own that nothing exports: for code built outside a Spring context. */
  public static PaymentMetrics unexported() {
    return new PaymentMetrics(new SimpleMeterRegistry());
  }

  /**
   * Registers the series of a kind in these countries at zero, so dashboards and alerts find them before the first
   * payment of the kind (a rate over a series that does not exist yet is no rate at all).
   */
  public PaymentMetrics declare(PaymentKind kind, String... countries) {
    for (String country : countries) {
      for (String outcome : new String[] {"accepted", "succeeded", "failed"}) {
        counter(kind, country, outcome);
      }
      timer(kind, country, "succeeded");
      timer(kind, country, "failed");
    }
    return this;
  }

  /** A new payment was stored (not a replay of an earlier request). */
  public void accepted(PaymentKind kind, String country) {
    counter(kind, country, "accepted").increment();
  }

  /** A payment reached its final state, which this call's write set: counted once per payment. */
  public void finished(PaymentKind kind, String country, boolean succeeded, Instant acceptedAt, Instant finishedAt) {
    String outcome = succeeded ? "succeeded" : "failed";
    counter(kind, country, outcome).increment();
    if (acceptedAt != null && finishedAt != null && !finishedAt.isBefore(acceptedAt)) {
      timer(kind, country, outcome).record(Duration.between(acceptedAt, finishedAt));
    }
  }

  private Counter counter(PaymentKind kind, String country, String outcome) {
    return Counter.builder(PAYMENTS).description("Payments accepted, succeeded and failed")
        .tag("kind", kind.tag()).tag("country", country(country)).tag("outcome", outcome).register(registry);
  }

  private Timer timer(PaymentKind kind, String country, String outcome) {
    return Timer.builder(OUTCOME_LATENCY).description("From a payment's acceptance to its final state")
        .tag("kind", kind.tag()).tag("country", country(country)).tag("outcome", outcome)
        .serviceLevelObjectives(BUCKETS).register(registry);
  }

  private static String country(String country) {
    return country != null && COUNTRIES.contains(country) ? country : "other";
  }
}
