package dev.lipa.common.kafka;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.GenericMessageListener;
import org.springframework.kafka.listener.ListenerContainerRegistry;
import org.springframework.kafka.listener.ListenerUtils;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.support.Acknowledgment;

/**
 * Runs a dead letter's original record through the listener that failed on it, and only that one: the listener of
 * the container with the dead letter's id, called in this process with the record as it was read (key, value,
 * headers, origin). Nothing is published, so no other consumer group of the topic sees the record again, and the
 * listener's own guards apply exactly as for a redelivery (eventId dedupe, compare-and-set state transitions), which is
 * what makes a replay safe to repeat. Any replica of the service can replay any dead letter: the listeners keep no
 * state outside the store.
 */
public final class DeadLetterReplayer {

  private static final Logger log = LoggerFactory.getLogger(DeadLetterReplayer.class);
  private static final Acknowledgment NO_ACK = () -> {
  };

  private final DeadLetterStore store;
  private final ListenerContainerRegistry containers;
  private final Clock clock;

  public DeadLetterReplayer(DeadLetterStore store, ListenerContainerRegistry containers, Clock clock) {
    this.store = store;
    this.containers = containers;
    this.clock = clock;
  }

  /** What a replay did. */
  public enum Outcome {
    /** The listener processed the record (or, by its own guards, recognised it as already processed). */
    REPLAYED,
    /** The listener refused the record again, deterministically; the dead letter records the new failure. */
    STILL_UNPROCESSABLE,
    /** The listener failed for another reason (the store unavailable, say): nothing changed, try again later. */
    LISTENER_FAILED,
    /** No listener with the dead letter's id runs in this service (renamed or removed since). */
    NO_SUCH_LISTENER
  }

  /** The outcome, the dead letter after it and, when the listener failed, why. */
  public record Replay(Outcome outcome, DeadLetter deadLetter, String failure) {
  }

  /** Empty when there is no dead letter with this id. */
  public Optional<Replay> replay(String id) {
    Optional<DeadLetter> found = store.find(id);
    Optional<ConsumerRecord<String, String>> original = store.original(id);
    if (found.isEmpty() || original.isEmpty()) {
      return Optional.empty();
    }
    DeadLetter letter = found.get();
    MessageListenerContainer container = containers.getListenerContainer(letter.listener());
    Object listener = container == null ? null : container.getContainerProperties().getMessageListener();
    if (listener == null) {
      return Optional.of(new Replay(Outcome.NO_SUCH_LISTENER, letter, null));
    }
    try {
      invoke(listener, original.get());
    } catch (RuntimeException e) {
      Throwable reason = ListenerFailures.reason(e);
      if (ListenerFailures.isDeterministic(e)) {
        log.warn("replay of dead letter {} ({} {}-{}@{}) failed again: {}", id, letter.listener(), letter.topic(),
            letter.partition(), letter.offset(), ListenerAlerts.describe(reason));
        return Optional.of(new Replay(Outcome.STILL_UNPROCESSABLE,
            store.failedAgain(id, reason, clock.instant()).orElse(letter), reason.getMessage()));
      }
      log.error("replay of dead letter {} ({} {}-{}@{}) could not finish", id, letter.listener(), letter.topic(),
          letter.partition(), letter.offset(), e);
      return Optional.of(new Replay(Outcome.LISTENER_FAILED, letter, reason.getClass().getSimpleName()));
    }
    log.info("dead letter {} ({} {}-{}@{}) replayed", id, letter.listener(), letter.topic(), letter.partition(),
        letter.offset());
    return Optional.of(new Replay(Outcome.REPLAYED, store.replayed(id, clock.instant()).orElse(letter), null));
  }

  @SuppressWarnings("unchecked")
  private static void invoke(Object listener, ConsumerRecord<String, String> record) {
    Object data = listener instanceof BatchMessageListener<?, ?> ? List.of(record) : record;
    GenericMessageListener<Object> target = (GenericMessageListener<Object>) listener;
    switch (ListenerUtils.determineListenerType(listener)) {
      case ACKNOWLEDGING_CONSUMER_AWARE -> target.onMessage(data, NO_ACK, null);
      case CONSUMER_AWARE -> target.onMessage(data, (Consumer<?, ?>) null);
      case ACKNOWLEDGING -> target.onMessage(data, NO_ACK);
      case SIMPLE -> target.onMessage(data);
    }
  }
}
