package dev.lipa.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.BatchListenerFailedException;

class RecordBatchesTests {

  private final List<List<String>> applied = new ArrayList<>();

  private static List<ConsumerRecord<String, String>> records(String... values) {
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      records.add(new ConsumerRecord<>("payments.collections.v1", 1, 100 + i, "k", values[i]));
    }
    return records;
  }

  private static String read(ConsumerRecord<String, String> record) {
    return switch (record.value()) {
      case "bad" -> throw new UnprocessableRecordException("bad record");
      case "other" -> null;
      default -> record.value();
    };
  }

  @Test
  void appliesEveryRecordForThisConsumerInOneCall() {
    RecordBatches.readThenApply(records("a", "other", "b"), RecordBatchesTests::read, applied::add);

    assertThat(applied).containsExactly(List.of("a", "b"));
  }

  @Test
  void appliesTheRecordsBeforeAnUnprocessableOneThenNamesIt() {
    List<ConsumerRecord<String, String>> batch = records("a", "b", "bad", "c");

    assertThatThrownBy(() -> RecordBatches.readThenApply(batch, RecordBatchesTests::read, applied::add))
        .isInstanceOfSatisfying(BatchListenerFailedException.class, e -> {
          assertThat(e.getRecord()).isSameAs(batch.get(2));
          assertThat(e.getCause()).isInstanceOf(UnprocessableRecordException.class);
        });
    assertThat(applied).containsExactly(List.of("a", "b"));
  }

  @Test
  void appliesNothingWhenTheFirstRecordIsUnprocessable() {
    assertThatThrownBy(() -> RecordBatches.readThenApply(records("bad", "a"), RecordBatchesTests::read,
        applied::add)).isInstanceOf(BatchListenerFailedException.class);
    assertThat(applied).isEmpty();
  }

  @Test
  void letsAFailureToApplyPropagateAsItIs() {
    IllegalStateException storeDown = new IllegalStateException("store down");

    assertThatThrownBy(() -> RecordBatches.readThenApply(records("a"), RecordBatchesTests::read, items -> {
      throw storeDown;
    })).isSameAs(storeDown);
  }
}
