package dev.lipa.dispatcher.delivery;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The dispatcher's meters, all registered at zero when it starts (alerts find them before the first callback):
 * <ul>
 *   <li>{@value #ATTEMPTS} (counter, tag {@code outcome}: {@code delivered} a 2xx, {@code failed} any other answer or
 *       none, {@code gone} a 410 that disabled the URL);</li>
 *   <li>{@value #LATENCY} (timer, tag {@code outcome}): from sending the request to having read the bounded answer,
 *       or to the failure;</li>
 *   <li>{@value #DEAD} (counter): callbacks whose schedule ran out (or that can never be sent), now dead letters;</li>
 *   <li>{@value #DISABLED} (counter): callback URLs disabled by a 410 Gone.</li>
 * </ul>
 * Tags name outcomes only, never a merchant, a host or a URL.
 */
public final class CallbackMetrics {

  static final String ATTEMPTS = "lipa.callbacks.attempts";
  static final String LATENCY = "lipa.callbacks.attempt.latency";
  static final String DEAD = "lipa.callbacks.dead";
  static final String DISABLED = "lipa.callbacks.disabled";
  private static final String[] OUTCOMES = {"delivered", "failed", "gone"};

  private final MeterRegistry registry;
  private final Counter dead;
  private final Counter disabled;

  public CallbackMetrics(MeterRegistry registry) {
    this.registry = registry;
    for (String outcome : OUTCOMES) {
      attempts(outcome);
      latency(outcome);
    }
    this.dead = Counter.builder(DEAD).description("Callbacks that became dead letters").register(registry);
    this.disabled = Counter.builder(DISABLED).description("Callback URLs disabled by a 410 Gone")
        .register(registry);
  }

  void attempted(AttemptOutcome outcome) {
    String tag = outcome.succeeded() ? "delivered" : outcome.gone() ? "gone" : "failed";
    attempts(tag).increment();
    latency(tag).record(Duration.ofMillis(Math.max(0, outcome.latencyMs())));
  }

  void died() {
    dead.increment();
  }

  void disabledEndpoint() {
    disabled.increment();
  }

  private Counter attempts(String outcome) {
    return Counter.builder(ATTEMPTS).description("Callback HTTP attempts by outcome").tag("outcome", outcome)
        .register(registry);
  }

  private Timer latency(String outcome) {
    return Timer.builder(LATENCY).description("Callback HTTP attempts' latency").tag("outcome", outcome)
        .register(registry);
  }
}
