package dev.lipa.common.kafka;

import java.time.Instant;

/**
 * A record one consumer could not process, as kept in that service's store for operators: where it came from, what
 * it held, why it failed, and what has been done with it since. Times are UTC instants.
 *
 * @param id the dead letter's id (the operator API's {@code {id}})
 * @param listener the {@code @KafkaListener} id, which a replay calls again
 * @param timestamp the original record's timestamp
 * @param key the record's key as text
 * @param value the record's value as text (every platform topic carries JSON text); null for a tombstone
 * @param deadLetterTopic where the record was also published ({@link DeadLetterTopics})
 * @param attempts how many times it failed deterministically: once in the consumer, once more per failed replay
 * @param replays how many replays ran it through the listener without failing
 */
public record DeadLetter(
    String id,
    String listener,
    String consumerGroup,
    String topic,
    int partition,
    long offset,
    Instant timestamp,
    String key,
    String value,
    String deadLetterTopic,
    String exceptionClass,
    String exceptionMessage,
    Status status,
    int attempts,
    Instant deadAt,
    Instant lastFailedAt,
    int replays,
    Instant lastReplayedAt) {

  /** DEAD until a replay gets through the listener; REPLAYED after (a later failed replay makes it DEAD again). */
  public enum Status {
    DEAD, REPLAYED
  }
}
