package dev.lipa.payouts.payout;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The numeric {@code id} of payout records, made without a store write: 41 bits of milliseconds since 2025-01-01,
 * 8 bits of a node number drawn at random per process, 4 bits of a sequence within the millisecond. Positive, below
 * 2^53 (exact for JSON clients that read doubles) and growing with time. A collision between replicas is turned into
 * a retry by the unique index on {@code id}; bursts above 16 ids per millisecond borrow the next millisecond.
 */
@Component
public class PayoutIds {

  static final long EPOCH_MILLIS = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
  static final int NODE_BITS = 8;
  static final int SEQUENCE_BITS = 4;
  static final long MAX_ID = (1L << 53) - 1;

  private final Clock clock;
  private final long node;
  private long lastMillis = -1;
  private long sequence;

  @Autowired
  public PayoutIds(Clock clock) {
    this(clock, new SecureRandom().nextInt(1 << NODE_BITS));
  }

  PayoutIds(Clock clock, long node) {
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
      throw new IllegalStateException("the id space of PayoutIds is exhausted; widen its epoch");
    }
    return id;
  }
}
