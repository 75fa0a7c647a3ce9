package dev.lipa.store;

import java.time.Duration;

/**
 * How the on-disk store makes a write durable before it answers it. Every answer waits until the store's write-ahead
 * log holds what the command changed and saw (group commit: the commands that arrive while one group of records is
 * written share the next one); the H2 file itself is committed by a checkpoint now and then.
 *
 * @param fsync also force each group of log records to the disk ({@code FileChannel.force}): the write then survives
 *     a power cut or an operating-system crash, not only a crash or {@code kill -9} of the store process, at the cost
 *     of a disk flush per group (checkpoints are forced to the disk either way)
 * @param linger how long the committer waits, once a command needs the log written, for more commands to join it
 *     (zero: it writes at once; the commands that arrive during a write always join the next one)
 * @param checkpointEvery how often the H2 file is committed (sooner when the log grows large); what is logged since
 *     the last checkpoint is applied again when the store opens
 */
public record Durability(boolean fsync, Duration linger, Duration checkpointEvery) {

  /** Every group of log records forced to the disk before its answers; no linger; a checkpoint a second. */
  public static final Durability DEFAULT = new Durability(true, Duration.ZERO, Duration.ofSeconds(1));

  public Durability {
    if (linger == null || linger.isNegative() || linger.compareTo(Duration.ofSeconds(1)) > 0) {
      throw new IllegalArgumentException("linger must be between 0 and 1 s, not " + linger);
    }
    if (checkpointEvery == null || checkpointEvery.compareTo(Duration.ofMillis(10)) < 0
        || checkpointEvery.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("checkpoints must come every 10 ms to 1 min, not " + checkpointEvery);
    }
  }

  public Durability(boolean fsync, Duration linger) {
    this(fsync, linger, DEFAULT.checkpointEvery);
  }

  public Durability withFsync(boolean on) {
    return new Durability(on, linger, checkpointEvery);
  }

  public Durability withCheckpointEvery(Duration every) {
    return new Durability(fsync, linger, every);
  }
}
