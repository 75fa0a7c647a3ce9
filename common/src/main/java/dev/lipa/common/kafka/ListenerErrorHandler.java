package dev.lipa.common.kafka;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.listener.BackOffHandler;
import org.springframework.kafka.listener.ConsumerRecordRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.listener.RetryListener;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;

/**
 * The error handler of every Kafka listener container of the platform (installed by
 * {@link ListenerErrorHandlingAutoConfiguration} on every container factory). spring-kafka's {@link DefaultErrorHandler}
 * configured so that no record is ever dropped:
 *
 * <ul>
 *   <li>a failure not proven deterministic (the store or the broker unavailable, anything unknown) is retried without
 *       limit, with the given capped exponential back-off, the container <b>paused</b> meanwhile (a
 *       {@code ContainerPausingBackOffHandler}); batch listeners retry the whole batch the same way;
 *   <li>a deterministic failure ({@link ListenerFailures#isDeterministic}) of one record goes to the recoverer (the
 *       consumer's dead letters) at once, and the records behind it carry on. Should the recoverer itself fail (the
 *       store or the broker is down just then), the record waits out the same back-off, paused, and the recoverer is
 *       tried again: it is neither skipped nor retried in a tight loop;
 *   <li>a batch listener that throws a deterministic failure without naming its record (see {@link RecordBatches})
 *       has its batch retried like an infrastructure failure, loudly, rather than every record of the batch
 *       dead-lettered.
 * </ul>
 *
 * <p>While it handles a failure it knows the listener (the container's id and group); {@link #failing()} tells the
 * recoverer and the alerts.
 */
public class ListenerErrorHandler extends DefaultErrorHandler {

  private static final ThreadLocal<Failing> FAILING = new ThreadLocal<>();

  /** The listener whose failure is being handled on this thread. */
  public record Failing(String listenerId, String groupId, boolean batch) {
  }

  public ListenerErrorHandler(ConsumerRecordRecoverer deadLetters, BackOff retries, BackOffHandler pausing,
      RetryListener alerts) {
    super(deadLetters, retries, pausing);
    // the classification is ours (the back-off function below): nothing is "not retryable" to spring-kafka itself
    setClassifications(Map.of(), true);
    setBackOffFunction((record, failure) -> goesToDeadLetters(failure) ? new DeadLetterFirst(retries) : null);
    // a failed recovery keeps the record's state, so DeadLetterFirst paces the next recovery attempts
    setResetStateOnRecoveryFailure(false);
    setRetryListeners(alerts);
    // the "seek to current" spring-kafka throws to re-deliver after a handled failure is flow, not news: the alerts
    // say what failed
    setLogLevel(KafkaException.Level.DEBUG);
  }

  /** The listener whose failure this thread is handling; null outside the error handler. */
  public static Failing failing() {
    return FAILING.get();
  }

  /** Whether this failure of the listener being handled sends its record to the dead letters. */
  static boolean goesToDeadLetters(Throwable failure) {
    if (!ListenerFailures.isDeterministic(failure)) {
      return false;
    }
    Failing failing = FAILING.get();
    return failing == null || !failing.batch() || ListenerFailures.namesRecord(failure);
  }

  @Override
  public boolean handleOne(Exception thrownException, ConsumerRecord<?, ?> record, Consumer<?, ?> consumer,
      MessageListenerContainer container) {
    Failing previous = enter(container, false);
    try {
      return super.handleOne(thrownException, record, consumer, container);
    } finally {
      leave(previous);
    }
  }

  @Override
  public void handleRemaining(Exception thrownException, List<ConsumerRecord<?, ?>> records, Consumer<?, ?> consumer,
      MessageListenerContainer container) {
    Failing previous = enter(container, false);
    try {
      super.handleRemaining(thrownException, records, consumer, container);
    } finally {
      leave(previous);
    }
  }

  @Override
  public void handleBatch(Exception thrownException, ConsumerRecords<?, ?> data, Consumer<?, ?> consumer,
      MessageListenerContainer container, Runnable invokeListener) {
    Failing previous = enter(container, true);
    try {
      super.handleBatch(thrownException, data, consumer, container, invokeListener);
    } finally {
      leave(previous);
    }
  }

  @Override
  public <K, V> ConsumerRecords<K, V> handleBatchAndReturnRemaining(Exception thrownException,
      ConsumerRecords<?, ?> data, Consumer<?, ?> consumer, MessageListenerContainer container,
      Runnable invokeListener) {
    Failing previous = enter(container, true);
    try {
      return super.handleBatchAndReturnRemaining(thrownException, data, consumer, container, invokeListener);
    } finally {
      leave(previous);
    }
  }

  private static Failing enter(MessageListenerContainer container, boolean batch) {
    Failing previous = FAILING.get();
    FAILING.set(new Failing(container.getListenerId(), container.getGroupId(), batch));
    return previous;
  }

  private static void leave(Failing previous) {
    if (previous == null) {
      FAILING.remove();
    } else {
      FAILING.set(previous);
    }
  }

  /**
   * The back-off of a record bound for the dead letters: recover at once; if recovering failed, wait as for an
   * infrastructure failure (paused), then recover again; and so on, with growing waits, until the dead letter is
   * written.
   */
  static final class DeadLetterFirst implements BackOff {

    private final BackOff waits;

    DeadLetterFirst(BackOff waits) {
      this.waits = waits;
    }

    @Override
    public BackOffExecution start() {
      BackOffExecution wait = waits.start();
      return new BackOffExecution() {
        private boolean recoverNext = true;

        @Override
        public long nextBackOff() {
          if (recoverNext) {
            recoverNext = false;
            return STOP;
          }
          recoverNext = true;
          return wait.nextBackOff();
        }
      };
    }
  }
}
