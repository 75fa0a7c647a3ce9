package dev.lipa.common.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Every producer of a service is idempotent and waits for {@code acks=all}: the outbox removes an event from its
 * document once Kafka acknowledged it, so an acknowledgement must mean "on every in-sync replica" (with
 * {@code min.insync.replicas=2}, on two brokers), and a retried send must not write the record twice. A service that
 * asks for less (acks 0 or 1, idempotence off, retries 0, more than 5 requests in flight) refuses to start instead of
 * being silently weaker.
 */
public final class ProducerSafety {

  /** The most requests in flight per connection with which Kafka still keeps an idempotent producer's order. */
  static final int MAX_IN_FLIGHT = 5;

  private ProducerSafety() {
  }

  /**
   * The settings to add to a producer's configuration so that it is idempotent with {@code acks=all}.
   *
   * @throws IllegalStateException naming the setting when the configuration asks for something weaker
   */
  public static Map<String, Object> enforced(Map<String, Object> configs) {
    Object acks = configs.get(ProducerConfig.ACKS_CONFIG);
    if (acks != null && !"all".equalsIgnoreCase(acks.toString().trim()) && !"-1".equals(acks.toString().trim())) {
      throw refused(ProducerConfig.ACKS_CONFIG, acks, "all");
    }
    Object idempotence = configs.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
    if (idempotence != null && !Boolean.parseBoolean(idempotence.toString().trim())) {
      throw refused(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotence, "true");
    }
    Object retries = configs.get(ProducerConfig.RETRIES_CONFIG);
    if (retries != null && Integer.parseInt(retries.toString().trim()) < 1) {
      throw refused(ProducerConfig.RETRIES_CONFIG, retries, "at least 1 (the default is unlimited)");
    }
    Object inFlight = configs.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION);
    if (inFlight != null && Integer.parseInt(inFlight.toString().trim()) > MAX_IN_FLIGHT) {
      throw refused(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, inFlight, "at most " + MAX_IN_FLIGHT);
    }
    Map<String, Object> enforced = new HashMap<>();
    enforced.put(ProducerConfig.ACKS_CONFIG, "all");
    enforced.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    return enforced;
  }

  private static IllegalStateException refused(String setting, Object value, String wanted) {
    return new IllegalStateException("Kafka producer setting " + setting + "=" + value + " is refused: the platform's"
        + " producers are idempotent with acks=all (the outbox forgets an event once Kafka acknowledged it), so "
        + setting + " must be " + wanted);
  }
}
