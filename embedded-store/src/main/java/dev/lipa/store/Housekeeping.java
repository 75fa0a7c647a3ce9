package dev.lipa.store;

import java.time.Duration;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The on-disk store's compaction, which H2's background writer did before the group commit turned it off: every so
 * often, when something was committed since, the committer rewrites the live pages of a few sparse chunks (at most
 * {@code writeBytes} of them, so the pause of the commands stays a few milliseconds) into the next chunk, so that the
 * sparse ones die and their space is used again. Without it a file under many updates of the same documents keeps
 * chunks that hold one live page each. Runs on the committer's thread only, under the exclusive lock.
 */
final class Housekeeping {

  private static final Logger log = LoggerFactory.getLogger(Housekeeping.class);

  private final Duration every;
  private final int targetFillRate;
  private final int writeBytes;
  private long lastRun = System.nanoTime();
  private boolean changed;
  private volatile long runs;
  private volatile long longestPauseNanos;

  /**
   * @param every how often at most
   * @param targetFillRate the share of live data (percent) in the file's chunks below which it compacts
   * @param writeBytes the most live data one run rewrites
   */
  Housekeeping(Duration every, int targetFillRate, int writeBytes) {
    this.every = every;
    this.targetFillRate = targetFillRate;
    this.writeBytes = writeBytes;
  }

  /** Every second, below 80% live data, at most 256 KB a time. */
  static Housekeeping standard() {
    return new Housekeeping(Duration.ofSeconds(1), 80, 256 * 1024);
  }

  Duration every() {
    return every;
  }

  /** A commit wrote something. */
  void changed() {
    changed = true;
  }

  boolean due() {
    return changed && targetFillRate > 0 && System.nanoTime() - lastRun >= every.toNanos();
  }

  /**
   * Compacts and commits what it rewrote, when due; the caller holds the exclusive lock.
   *
   * @return whether it wrote to the file
   */
  boolean runIfDue(MVStore store) {
    if (!due()) {
      return false;
    }
    long started = System.nanoTime();
    boolean wrote = store.compact(targetFillRate, writeBytes) && store.commit() >= 0;
    long pause = System.nanoTime() - started;
    changed = false;
    lastRun = System.nanoTime();
    runs++;
    if (pause > longestPauseNanos) {
      longestPauseNanos = pause;
      log.debug("compaction paused the store for {} µs", pause / 1000);
    }
    return wrote;
  }

  long runs() {
    return runs;
  }

  long longestPauseNanos() {
    return longestPauseNanos;
  }
}
