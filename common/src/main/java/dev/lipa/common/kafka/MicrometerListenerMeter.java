package dev.lipa.common.kafka;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The listeners' failure counters: {@value #RETRIES} (an alert on any increase over a few minutes catches a stuck
 * consumer) and {@value #DEAD_LETTERS} (every increase is a record an operator should look at), both tagged with the
 * listener and the topic.
 */
final class MicrometerListenerMeter implements ListenerMeter {

  static final String RETRIES = "lipa.kafka.listener.retries";
  static final String DEAD_LETTERS = "lipa.kafka.listener.dead.letters";

  private final MeterRegistry registry;

  MicrometerListenerMeter(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void retried(String listener, String topic) {
    counter(RETRIES, "Deliveries that failed for a reason not proven deterministic and are retried", listener, topic)
        .increment();
  }

  @Override
  public void deadLettered(String listener, String topic) {
    counter(DEAD_LETTERS, "Records written to their consumer's dead letters", listener, topic).increment();
  }

  private Counter counter(String name, String description, String listener, String topic) {
    return Counter.builder(name).description(description).tag("listener", listener).tag("topic", topic)
        .register(registry);
  }
}
