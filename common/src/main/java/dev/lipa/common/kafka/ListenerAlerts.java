package dev.lipa.common.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.RetryListener;
import org.springframework.kafka.support.KafkaUtils;

/**
 * The alert-worthy signals of failing listeners: one ERROR line per failed attempt, in a stable wording operators can
 * match ({@value #RETRY}, {@value #DEAD_LETTER_FAILED}; the dead letters themselves log {@value #DEAD_LETTER}), each
 * naming the listener, its group, the record's topic, partition and offset, and the attempt; plus the counters of
 * {@link ListenerMeter}.
 */
final class ListenerAlerts implements RetryListener {

  /** An attempt failed for a reason not proven deterministic; the consumer is paused and will try again. */
  static final String RETRY = "kafka-listener-retry";
  /** A record was written to its consumer's dead letters. */
  static final String DEAD_LETTER = "kafka-listener-dead-letter";
  /** Writing a dead letter failed (the store or the broker is down); it will be written later, nothing is skipped. */
  static final String DEAD_LETTER_FAILED = "kafka-listener-dead-letter-failed";

  private static final Logger log = LoggerFactory.getLogger(ListenerAlerts.class);
  private static final int MAX_MESSAGE = 500;

  private final ListenerRetrySettings settings;
  private final ListenerMeter meter;

  ListenerAlerts(ListenerRetrySettings settings, ListenerMeter meter) {
    this.settings = settings;
    this.meter = meter;
  }

  @Override
  public void failedDelivery(ConsumerRecord<?, ?> record, Exception failure, int deliveryAttempt) {
    if (ListenerErrorHandler.goesToDeadLetters(failure)) {
      return; // the dead letter is logged when written, or its failure below
    }
    String listener = listener();
    log.error("{} listener={} group={} topic={} partition={} offset={} attempt={} retry-in={}ms (consumer paused): {}",
        RETRY, listener, group(), record.topic(), record.partition(), record.offset(), deliveryAttempt,
        settings.millisAfter(deliveryAttempt), describe(failure));
    meter.retried(listener, record.topic());
  }

  @Override
  public void failedDelivery(ConsumerRecords<?, ?> records, Exception failure, int deliveryAttempt) {
    if (ListenerFailures.namesRecord(failure) || records.isEmpty()) {
      return; // the named record is handled (and reported) on its own
    }
    ConsumerRecord<?, ?> first = records.iterator().next();
    String listener = listener();
    String hint = ListenerFailures.isDeterministic(failure)
        ? " (a batch listener must name the record it cannot process, see RecordBatches)" : "";
    log.error("{} listener={} group={} topic={} partition={} offset={} records={} attempt={} retry-in={}ms "
            + "(consumer paused): {}{}", RETRY, listener, group(), first.topic(), first.partition(), first.offset(),
        records.count(), deliveryAttempt, settings.millisAfter(deliveryAttempt), describe(failure), hint);
    meter.retried(listener, first.topic());
  }

  @Override
  public void recoveryFailed(ConsumerRecord<?, ?> record, Exception original, Exception failure) {
    log.error("{} listener={} group={} topic={} partition={} offset={} (consumer paused, the dead letter is written "
            + "once the store and the broker answer): {}; the record failed with: {}", DEAD_LETTER_FAILED, listener(),
        group(), record.topic(), record.partition(), record.offset(), describe(failure), describe(original));
  }

  static String describe(Throwable failure) {
    Throwable reason = ListenerFailures.reason(failure);
    String text = reason.toString();
    return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE) + "…";
  }

  private static String listener() {
    ListenerErrorHandler.Failing failing = ListenerErrorHandler.failing();
    return failing != null ? failing.listenerId() : String.valueOf(KafkaUtils.getConsumerGroupId());
  }

  private static String group() {
    ListenerErrorHandler.Failing failing = ListenerErrorHandler.failing();
    return failing != null ? failing.groupId() : String.valueOf(KafkaUtils.getConsumerGroupId());
  }
}
