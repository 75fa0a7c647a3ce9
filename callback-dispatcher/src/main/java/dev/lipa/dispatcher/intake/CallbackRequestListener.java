package dev.lipa.dispatcher.intake;

import dev.lipa.common.events.Topics;
import dev.lipa.dispatcher.delivery.DeliveryDispatcher;
import dev.lipa.dispatcher.delivery.DeliveryStore.CallbackIdConflict;
import dev.lipa.dispatcher.intake.CallbackRequestReader.MalformedCallbackRequest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns callback requests from Kafka into stored deliveries. The offset is committed only after the listener returns
 * (after-batch commit, auto-commit off), i.e. after the delivery is stored: a crash before that re-reads the record,
 * and storing it again changes nothing. Records that can never become a delivery are logged and skipped; any other
 * failure (the store unreachable) is retried by {@link IntakeConfiguration#intakeErrorHandler()} without committing.
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
      concurrency = "${lipa.dispatcher.intake.concurrency:3}")
  void onRecord(ConsumerRecord<String, String> record) {
    if (record.value() == null) {
      return;
    }
    try {
      reader.read(record.value()).ifPresent(dispatcher::accept);
    } catch (MalformedCallbackRequest | CallbackIdConflict e) {
      // retrying cannot fix these; skipping them keeps the partition flowing (the producer's bug is in the log)
      log.error("skipping callback request at {}-{}@{}: {}", record.topic(), record.partition(), record.offset(),
          e.getMessage());
    }
  }
}
