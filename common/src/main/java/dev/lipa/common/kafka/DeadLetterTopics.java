package dev.lipa.common.kafka;

/**
 * The one naming rule of dead-letter topics: one per consumer, {@code <topic>.<consumer group>.dlt}, e.g.
 * {@code payments.collections.v1.payouts-ledger.dlt}. Per consumer, because a record that one consumer cannot
 * process may be fine for every other group of its topic.
 */
public final class DeadLetterTopics {

  public static final String SUFFIX = ".dlt";

  private DeadLetterTopics() {
  }

  public static String name(String topic, String consumerGroup) {
    return topic + "." + consumerGroup + SUFFIX;
  }
}
