package dev.lipa.common.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchListenerFailedException;

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
    List<T> items = new ArrayList<>(records.size());
    for (R record : records) {
      T item;
      try {
        item = read.apply(record);
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
}
