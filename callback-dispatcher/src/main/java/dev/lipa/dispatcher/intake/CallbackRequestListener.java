package dev.lipa.dispatcher.intake;

import dev.lipa.common.events.Topics;
import dev.lipa.common.kafka.RecordBatches;
import dev.lipa.dispatcher.delivery.CallbackRequest;
import dev.lipa.dispatcher.delivery.DeliveryDispatcher;
import dev.lipa.common.tracing.TraceContexts;
import io.micrometer.observation.ObservationRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns callback requests from Kafka into stored deliveries, a poll's records at a time: they are stored with one
 * bulk write (see {@link DeliveryDispatcher#acceptAll}). The offsets are committed only after the listener returns
 * (after-batch commit, auto-commit off), i.e. after the deliveries are stored: a crash before that re-reads the
 * records, and storing them again changes nothing. A record that can never become a delivery goes to this consumer's
 * dead letters ({@code payments.callbacks.v1.callback-dispatcher.dlt}) and the rest of the poll is stored; any other
 * failure (the store unreachable) fails the whole poll, which the platform's error handler retries, paused and
 * uncommitted, until it succeeds.
 */
@Component
class CallbackRequestListener {

  static final String ID = "callback-intake";

  private final CallbackRequestReader reader;
  private final DeliveryDispatcher dispatcher;
  private final ObservationRegistry observations;
  private final TraceContexts tracing;

  CallbackRequestListener(JsonMapper json, DeliveryDispatcher dispatcher,
      ObjectProvider<ObservationRegistry> observations, ObjectProvider<TraceContexts> tracing) {
    this.reader = new CallbackRequestReader(json);
    this.dispatcher = dispatcher;
    this.observations = observations.getIfAvailable(() -> ObservationRegistry.NOOP);
    this.tracing = tracing.getIfAvailable(() -> TraceContexts.NONE);
  }

  // topic and group are settings only so that a test can run a second dispatcher process beside the one in its JVM
  @KafkaListener(id = ID, topics = "${lipa.dispatcher.intake.topic:" + Topics.OfEnvironment.CALLBACKS + "}",
      groupId = "${lipa.dispatcher.intake.group:callback-dispatcher" + Topics.OfEnvironment.GROUP_SUFFIX + "}",
      concurrency = "${lipa.dispatcher.intake.concurrency:3}", batch = "true")
  void onRecords(List<ConsumerRecord<String, String>> records) {
    // each record is read in its own trace (RecordBatches), and the delivery keeps that context for its POSTs
    RecordBatches.readThenApply(observations, ID, records, this::request, dispatcher::acceptAll);
  }

  /** The delivery a record asks for, under the record's trace; null for a tombstone or another event type. */
  private CallbackRequest request(ConsumerRecord<String, String> record) {
    if (record.value() == null) {
      return null;
    }
    String context = tracing.current();
    if (context == null) {
      Header header = record.headers().lastHeader(TraceContexts.TRACEPARENT);
      context = header == null ? null
          : TraceContexts.wellFormed(new String(header.value(), StandardCharsets.US_ASCII));
    }
    String trace = context;
    return reader.read(record.value()).map(request -> request.underTrace(trace)).orElse(null);
  }
}
