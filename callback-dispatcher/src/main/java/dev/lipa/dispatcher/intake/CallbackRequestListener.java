package dev.lipa.dispatcher.intake;

import dev.lipa.common.events.Topics;
import dev.lipa.dispatcher.delivery.CallbackRequest;
import dev.lipa.dispatcher.delivery.DeliveryDispatcher;
import dev.lipa.dispatcher.intake.CallbackRequestReader.MalformedCallbackRequest;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns callback requests from Kafka into stored deliveries, a poll's records at a time: they are stored with one
 * bulk write (see {@link DeliveryDispatcher#acceptAll}). The offsets are committed only after the listener returns
 * (after-batch commit, auto-commit off), i.e. after the deliveries are stored: a crash before that re-reads the
 * records, and storing them again changes nothing. Records that can never become a delivery are logged and skipped;
 * any other failure (the store unreachable) fails the whole poll, which {@link IntakeConfiguration#intakeErrorHandler()}
 * retries without committing.
 */
@Component
class CallbackRequestListener {

  private static final Logger log = LoggerFactory.getLogger(CallbackRequestListener.class);

  private final CallbackRequestReader reader;
  private final DeliveryDispatcher dispatcher;

  CallbackRequestListener(JsonMapper json, DeliveryDispatcher dispatcher) {
    this.reader = new CallbackRequestReader(json);
    this.dispatcher = dispatcher;
  }

  // topic and group are settings only so that a test can run a second dispatcher process beside the one in its JVM
  @KafkaListener(id = "callback-intake", topics = "${lipa.dispatcher.intake.topic:" + Topics.CALLBACKS + "}",
      groupId = "${lipa.dispatcher.intake.group:callback-dispatcher}",
      concurrency = "${lipa.dispatcher.intake.concurrency:3}", batch = "true")
  void onRecords(List<ConsumerRecord<String, String>> records) {
    List<CallbackRequest> requests = new ArrayList<>(records.size());
    for (ConsumerRecord<String, String> record : records) {
      if (record.value() == null) {
        continue;
      }
      try {
        reader.read(record.value()).ifPresent(requests::add);
      } catch (MalformedCallbackRequest e) {
        // retrying cannot fix it; skipping it keeps the partition flowing (the producer's bug is in the log)
        log.error("skipping callback request at {}-{}@{}: {}", record.topic(), record.partition(), record.offset(),
            e.getMessage());
      }
    }
    dispatcher.acceptAll(requests);
  }
}
