package dev.lipa.common.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.ConsumerRecordRecoverer;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.support.KafkaUtils;

/**
 * What becomes of a record its consumer can never process: it is recorded in the service's {@link DeadLetterStore}
 * (for operators, and for a replay), then published to the consumer's dead-letter topic ({@link DeadLetterTopics}) by
 * spring-kafka's {@link DeadLetterPublishingRecoverer}, which adds the failure and the record's origin as headers
 * ({@code kafka_dlt-exception-fqcn}, {@code -message}, {@code kafka_dlt-original-topic}, {@code -partition},
 * {@code -offset}, {@code -timestamp}, {@code -consumer-group}). Only when both succeeded does the container commit
 * past the record; a failure of either throws, and the record is recovered again later (both steps are safe to
 * repeat: the store keys the dead letter by its origin, and the topic is read by people and tools, not applied).
 */
final class DeadLetterRecoverer implements ConsumerRecordRecoverer {

  private static final Logger log = LoggerFactory.getLogger(DeadLetterRecoverer.class);

  private final DeadLetterStore store;
  private final DeadLetterPublishingRecoverer publisher;
  private final ListenerMeter meter;
  private final Clock clock;

  DeadLetterRecoverer(DeadLetterStore store, KafkaOperations<?, ?> kafka, ListenerMeter meter, Clock clock) {
    this.store = store;
    this.publisher = new DeadLetterPublishingRecoverer(kafka,
        (record, failure) -> new TopicPartition(DeadLetterTopics.name(record.topic(), group()), -1));
    // spring-kafka names the group only when handed its own wrapper exception; it is handed the listener's here, so
    // that the exception headers name what the listener threw
    publisher.setHeadersFunction((record, failure) -> new RecordHeaders().add(
        KafkaHeaders.DLT_ORIGINAL_CONSUMER_GROUP, group().getBytes(StandardCharsets.UTF_8)));
    this.meter = meter;
    this.clock = clock;
  }

  @Override
  public void accept(ConsumerRecord<?, ?> record, Exception failure) {
    ListenerErrorHandler.Failing failing = ListenerErrorHandler.failing();
    String group = group();
    String listener = failing != null ? failing.listenerId() : group;
    Throwable reason = ListenerFailures.reason(failure);
    String topic = DeadLetterTopics.name(record.topic(), group);
    DeadLetter letter = store.record(listener, group, record, topic, reason, clock.instant());
    publisher.accept(record, null, reason instanceof Exception e ? e : failure);
    log.error("{} listener={} group={} topic={} partition={} offset={} dead-letter-topic={} id={}: {}",
        ListenerAlerts.DEAD_LETTER, listener, group, record.topic(), record.partition(), record.offset(), topic,
        letter.id(), ListenerAlerts.describe(reason));
    meter.deadLettered(listener, record.topic());
  }

  private static String group() {
    ListenerErrorHandler.Failing failing = ListenerErrorHandler.failing();
    if (failing != null && failing.groupId() != null) {
      return failing.groupId();
    }
    return String.valueOf(KafkaUtils.getConsumerGroupId());
  }
}
