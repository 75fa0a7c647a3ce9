package dev.lipa.common.kafka;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.support.micrometer.KafkaListenerObservation;
import org.springframework.kafka.support.micrometer.KafkaRecordReceiverContext;

/**
 * How a batch listener reads its records so that an unprocessable one goes to the dead letters alone: records are read
 * in order; at the first that throws {@link UnprocessableRecordException} the ones read before it are applied, then
 * the failure is thrown as a {@link BatchListenerFailedException} naming that record. The error handler then commits
 * the records before it, dead-letters it, and delivers the ones after it again. A failure of {@code apply} (the store
 * down) propagates as it is, and the whole batch is retried.
 *
 * <pre>{@code
 * RecordBatches.readThenApply(records, this::credit, ledger::creditAll);
 * }</pre>
 *
 * <p><b>Traces.</b> spring-kafka observes a batch listener as a whole, or (with {@code recordObservationsInBatch})
 * records one empty observation per record before the listener runs: neither gives a record's own processing its
 * producer's trace. {@link #readThenApply(ObservationRegistry, String, List, Function, Consumer)} reads each record
 * inside a listener observation of its own, whose parent is the record's {@code traceparent} header: what the read
 * logs, and the trace context it keeps (the dispatcher keeps it with the delivery), belong to the record's trace.
 */
public final class RecordBatches {

  private RecordBatches() {
  }

  /**
   * @param read what a record asks for; null for a record that is not for this consumer (skipped)
   * @param apply applies what was read, in order; not called with an empty list
   */
  public static <R extends ConsumerRecord<?, ?>, T> void readThenApply(List<R> records, Function<R, T> read,
      Consumer<List<T>> apply) {
    readThenApply(ObservationRegistry.NOOP, null, records, read, apply);
  }

  /**
   * The same, each record read inside spring-kafka's listener observation of that record (a span whose parent is the
   * record's trace context, with the listener's id), so that the read runs in the record's trace.
   *
   * @param listenerId the listener's id (and consumer group), as the observation names it
   */
  public static <R extends ConsumerRecord<?, ?>, T> void readThenApply(ObservationRegistry observations,
      String listenerId, List<R> records, Function<R, T> read, Consumer<List<T>> apply) {
    List<T> items = new ArrayList<>(records.size());
    for (R record : records) {
      T item;
      try {
        item = observed(observations, listenerId, record, read);
      } catch (UnprocessableRecordException e) {
        if (!items.isEmpty()) {
          apply.accept(items);
        }
        throw new BatchListenerFailedException(e.getMessage(), e, record);
      }
      if (item != null) {
        items.add(item);
      }
    }
    if (!items.isEmpty()) {
      apply.accept(items);
    }
  }

  private static <R extends ConsumerRecord<?, ?>, T> T observed(ObservationRegistry observations, String listenerId,
      R record, Function<R, T> read) {
    if (observations.isNoop()) {
      return read.apply(record);
    }
    @SuppressWarnings("unchecked")
    ConsumerRecord<Object, Object> plain = (ConsumerRecord<Object, Object>) record;
    Observation observation = KafkaListenerObservation.LISTENER_OBSERVATION.observation(null,
        KafkaListenerObservation.DefaultKafkaListenerObservationConvention.INSTANCE,
        () -> new KafkaRecordReceiverContext(plain, listenerId, null, listenerId, () -> null), observations);
    return observation.observe(() -> read.apply(record));
  }
}
