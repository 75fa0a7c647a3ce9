package dev.lipa.common.ids;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;

/**
 * The numeric {@code id} of payment records (STK pushes, bank collections, payouts), made without a store write (a counter document would cost one write per
 * payment): 41 bits of milliseconds since 2025-01-01 (until 2094), 8 bits of a node number drawn at random per
 * process, 4 bits of a sequence within the millisecond. The result is positive and below 2^53, so JSON clients that
 * read numbers as doubles see it exactly, and it grows with time.
 *
 * <p>Two replicas collide only when they drew the same node number and mint in the same millisecond with the same
 * sequence; the unique index on {@code id} turns that rare case into a retry with a fresh id, never a duplicate.
 * Bursts above 16 ids per millisecond borrow the next millisecond (the clock runs slightly ahead, ids stay unique).
 */
public class RecordIds {

  static final long EPOCH_MILLIS = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
  static final int NODE_BITS = 8;
  static final int SEQUENCE_BITS = 4;
  static final long MAX_ID = (1L << 53) - 1;

  private final Clock clock;
  private final long node;
  private long lastMillis = -1;
  private long sequence;

  public RecordIds(Clock clock) {
    this(clock, new SecureRandom().nextInt(1 << NODE_BITS));
  }

  RecordIds(Clock clock, long node) {
    if (node < 0 || node >= (1 << NODE_BITS)) {
      throw new IllegalArgumentException("node out of range");
    }
    this.clock = clock;
    this.node = node;
  }

  public synchronized long next() {
    long millis = Math.max(clock.millis() - EPOCH_MILLIS, lastMillis);
    if (millis == lastMillis) {
      sequence++;
      if (sequence == (1 << SEQUENCE_BITS)) {
        millis++;
        sequence = 0;
      }
    } else {
      sequence = 0;
    }
    lastMillis = millis;
    long id = (millis << (NODE_BITS + SEQUENCE_BITS)) | (node << SEQUENCE_BITS) | sequence;
    if (id <= 0 || id > MAX_ID) {
      throw new IllegalStateException("the id space of RecordIds is exhausted; widen its epoch");
    }
    return id;
  }
}
