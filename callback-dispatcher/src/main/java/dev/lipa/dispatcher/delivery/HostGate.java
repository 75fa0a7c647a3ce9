package dev.lipa.dispatcher.delivery;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Keeps one merchant's slow or failing endpoint from holding up everyone else: per destination (host and port) at
 * most {@code perHostConcurrency} attempts are in flight, a few more may wait briefly for a permit, and a resilience4j
 * circuit breaker per destination stops attempts while the destination keeps failing. An attempt that gets no
 * permit, or finds the circuit open, is deferred instead of waiting: the global slot it holds goes straight back to
 * the other merchants.
 */
final class HostGate {

  /** Entries for destinations not seen for a while are not worth keeping forever; this bounds the map. */
  private static final int MAX_DESTINATIONS = 10_000;

  private final int perHost;
  private final int maxWaiting;
  private final Duration permitWait;
  private final CircuitBreakerRegistry breakers;
  private final Map<String, Semaphore> permits = new ConcurrentHashMap<>();

  HostGate(int perHost, Duration permitWait, CircuitBreakerConfig breakerConfig) {
    this.perHost = perHost;
    this.maxWaiting = perHost; // waiters hold global slots: never more of them than attempts in flight
    this.permitWait = permitWait;
    this.breakers = CircuitBreakerRegistry.of(breakerConfig);
  }

  static CircuitBreakerConfig breakerConfig(DispatcherProperties properties) {
    return CircuitBreakerConfig.custom()
        .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
        .slidingWindowSize(properties.breakerWindow())
        .minimumNumberOfCalls(Math.min(properties.breakerMinimumCalls(), properties.breakerWindow()))
        .failureRateThreshold(properties.breakerFailureRate())
        .waitDurationInOpenState(properties.breakerOpenDuration())
        .permittedNumberOfCallsInHalfOpenState(Math.max(1, Math.min(3, properties.perHostConcurrency())))
        // so that an open circuit turns half-open by itself and isBlocked never has to probe it
        .automaticTransitionFromOpenToHalfOpenEnabled(true)
        .build();
  }

  /** The destination an URL is limited by: lower-case host and effective port. */
  static String destination(String url) {
    try {
      URI uri = URI.create(url);
      String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
      int port = uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
      return host + ":" + port;
    } catch (IllegalArgumentException e) {
      return "invalid";
    }
  }

  /**
   * Tries to enter the destination: a permit (waiting at most {@code permitWait}, and only if few others wait) and
   * the breaker's consent.
   *
   * @return the pass to report the attempt's result with, or empty when the attempt must be deferred
   */
  Optional<Pass> tryEnter(String destination) throws InterruptedException {
    CircuitBreaker breaker = breakers.circuitBreaker(destination);
    if (!breaker.tryAcquirePermission()) {
      return Optional.empty();
    }
    if (permits.size() > MAX_DESTINATIONS) {
      permits.entrySet().removeIf(e -> e.getValue().availablePermits() == perHost && !e.getValue().hasQueuedThreads());
    }
    Semaphore semaphore = permits.computeIfAbsent(destination, d -> new Semaphore(perHost, true));
    boolean entered = semaphore.tryAcquire()
        || (semaphore.getQueueLength() < maxWaiting && semaphore.tryAcquire(permitWait.toMillis(), TimeUnit.MILLISECONDS));
    if (!entered) {
      breaker.releasePermission();
      return Optional.empty();
    }
    return Optional.of(new Pass(breaker, semaphore, breaker.getCurrentTimestamp()));
  }

  /**
   * Whether an attempt to this destination would surely be deferred now (its circuit is open, or every permit is
   * taken and enough attempts already wait): the poller then leaves its deliveries unclaimed.
   */
  boolean isBlocked(String destination) {
    CircuitBreaker breaker = breakers.find(destination).orElse(null);
    if (breaker != null && breaker.getState() == CircuitBreaker.State.OPEN) {
      return true;
    }
    Semaphore semaphore = permits.get(destination);
    return semaphore != null && semaphore.availablePermits() == 0 && semaphore.getQueueLength() >= maxWaiting;
  }

  /**
   * How many attempts to one destination may be under way at once before more would surely be deferred: those in
   * flight plus those allowed to wait for a permit. The dispatcher hands out no more than this per destination.
   */
  int capacity() {
    return perHost + maxWaiting;
  }

  /** Whether the destination's circuit is open: an attempt now would be deferred however long it waited. */
  boolean isOpen(String destination) {
    return breakers.find(destination).map(b -> b.getState() == CircuitBreaker.State.OPEN).orElse(false);
  }

  /** Whether the breaker of a destination is open right now (for tests and logs). */
  CircuitBreaker.State state(String destination) {
    return breakers.circuitBreaker(destination).getState();
  }

  /** Held for one attempt: report its result exactly once. */
  static final class Pass {

    private final CircuitBreaker breaker;
    private final Semaphore semaphore;
    private final long start;
    private boolean closed;

    private Pass(CircuitBreaker breaker, Semaphore semaphore, long start) {
      this.breaker = breaker;
      this.semaphore = semaphore;
      this.start = start;
    }

    void succeeded() {
      finish(null);
    }

    void failed(String reason) {
      finish(reason);
    }

    /** The attempt never happened (shutdown); neither a success nor a failure for the breaker. */
    void abandoned() {
      if (!closed) {
        closed = true;
        breaker.releasePermission();
        semaphore.release();
      }
    }

    private void finish(String failure) {
      if (closed) {
        return;
      }
      closed = true;
      long duration = breaker.getCurrentTimestamp() - start;
      if (failure == null) {
        breaker.onSuccess(duration, breaker.getTimestampUnit());
      } else {
        breaker.onError(duration, breaker.getTimestampUnit(), new HostFailure(failure));
      }
      semaphore.release();
    }
  }

  /** What the breaker records for a failed call. */
  static final class HostFailure extends RuntimeException {

    HostFailure(String message) {
      super(message, null, false, false);
    }
  }
}
