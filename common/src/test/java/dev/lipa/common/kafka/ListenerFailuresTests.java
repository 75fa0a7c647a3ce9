package dev.lipa.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import java.net.SocketTimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import tools.jackson.databind.json.JsonMapper;

class ListenerFailuresTests {

  static Stream<Named<Throwable>> deterministic() {
    Exception notJson;
    try {
      JsonMapper.builder().build().readTree("{\"amount\": 1");
      throw new AssertionError("parsed");
    } catch (RuntimeException e) {
      notJson = e;
    }
    return Stream.of(
        Named.of("the listener's own refusal", new UnprocessableRecordException("unknown currency XYZ")),
        Named.of("JSON that does not parse", notJson),
        Named.of("a refusal wrapped by the container",
            new ListenerExecutionFailedException("failed", new UnprocessableRecordException("bad amount"))),
        Named.of("a batch listener's refusal naming its record", new BatchListenerFailedException("bad",
            new UnprocessableRecordException("bad amount"), new ConsumerRecord<>("t", 0, 1, "k", "v"))));
  }

  static Stream<Named<Throwable>> infrastructure() {
    return Stream.of(
        Named.of("the store unreachable", new MongoTimeoutException("Timed out while waiting for a server")),
        Named.of("a connection dropped", new MongoSocketReadException("end of stream", new ServerAddress())),
        Named.of("a send to Kafka that timed out", new KafkaException("send failed", new TimeoutException("60s"))),
        Named.of("a socket timeout wrapped by the container",
            new ListenerExecutionFailedException("failed", new RuntimeException(new SocketTimeoutException()))),
        Named.of("an argument the code did not expect (could be a bug that a fix cures)",
            new IllegalArgumentException("Invalid UUID string: x")),
        Named.of("anything else", new IllegalStateException("?")));
  }

  @ParameterizedTest
  @MethodSource("deterministic")
  void takesProvenRefusalsOfTheRecordForDeterministic(Throwable failure) {
    assertThat(ListenerFailures.isDeterministic(failure)).isTrue();
  }

  @ParameterizedTest
  @MethodSource("infrastructure")
  void takesEverythingElseForAFailureToRetry(Throwable failure) {
    assertThat(ListenerFailures.isDeterministic(failure)).isFalse();
  }

  @Test
  void unwrapsTheContainersWrappersToWhatTheListenerThrew() {
    UnprocessableRecordException thrown = new UnprocessableRecordException("bad amount");
    Throwable wrapped = new ListenerExecutionFailedException("failed", new BatchListenerFailedException("bad",
        thrown, 3));

    assertThat(ListenerFailures.reason(wrapped)).isSameAs(thrown);
    assertThat(ListenerFailures.namesRecord(wrapped)).isTrue();
    assertThat(ListenerFailures.namesRecord(new ListenerExecutionFailedException("failed", thrown))).isFalse();
  }

  @Test
  void namesTheDeadLetterTopicAfterTheTopicAndTheConsumerGroup() {
    assertThat(DeadLetterTopics.name("payments.collections.v1", "payouts-ledger"))
        .isEqualTo("payments.collections.v1.payouts-ledger.dlt");
  }
}
