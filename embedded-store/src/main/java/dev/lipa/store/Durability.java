package dev.lipa.store;

import java.time.Duration;

/**
 * How the on-disk store makes a write durable before it answers it. Every answer waits for a commit of the H2 file that
 * covers the command (group commit: the commands that arrive while one commit is written share the next one).
 *
 * @param fsync also force each commit to the disk ({@code FileChannel.force}): the write then survives a power cut or
 *     an operating-system crash, not only a crash or {@code kill -9} of the store process, at the cost of a disk flush
 *     per commit
 * @param linger how long the committer waits, once a command needs a commit, for more commands to join it (zero: it
 *     commits at once; the commands that arrive during a commit always join the next one)
 */
public record Durability(boolean fsync, Duration linger) {

  /** Writes reach the operating system before their answer (survive {@code kill -9}); no disk flush, no linger. */
  public static final Durability DEFAULT = new Durability(true, Duration.ZERO);

  public Durability {
    if (linger == null || linger.isNegative() || linger.compareTo(Duration.ofSeconds(1)) > 0) {
      throw new IllegalArgumentException("linger must be between 0 and 1 s, not " + linger);
    }
  }

  public Durability withFsync(boolean on) {
    return new Durability(on, linger);
  }
}
