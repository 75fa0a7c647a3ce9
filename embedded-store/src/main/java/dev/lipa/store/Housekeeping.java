package dev.lipa.store;

import org.h2.mvstore.MVStore;

/**
 * The on-disk store's compaction, which H2's background writer did before the group commit turned it off. Every commit
 * rewrites the pages it changed into a new chunk; a page that is not changed again (a payment settled and left alone)
 * keeps its old chunk alive, however little else in it is still live, so a file that only takes new documents grows
 * several times faster than its data. So in every round that writes, while the chunks hold less than
 * {@code targetFillRate} percent live data, the committer first rewrites the live pages of the sparsest old chunks, at
 * most {@code writeBytes} of them, and they go into the round's own commit: the old chunks die, their space is used
 * again, and the pause it adds to a round stays small. Runs on the committer's thread only, under the exclusive lock.
 */
final class Housekeeping {

  private final int targetFillRate;
  private final int writeBytes;
  private volatile long runs;
  private volatile long longestPauseNanos;
  private volatile long totalNanos;

  /**
   * @param targetFillRate the share of live data (percent) in the file's chunks below which it compacts
   * @param writeBytes the most live data one round rewrites
   */
  Housekeeping(int targetFillRate, int writeBytes) {
    this.targetFillRate = targetFillRate;
    this.writeBytes = writeBytes;
  }

  /**
   * Below 80% live data, at most 256 KB a round (about half a millisecond on the benchmark's machine); the system
   * properties {@code lipa.store.compact-fill-rate} and {@code lipa.store.compact-bytes} change both (a fill rate of 0
   * turns compaction off), for measuring.
   */
  static Housekeeping standard() {
    return new Housekeeping(Integer.getInteger("lipa.store.compact-fill-rate", 80),
        Integer.getInteger("lipa.store.compact-bytes", 256 * 1024));
  }

  /**
   * Rewrites the live pages of a few sparse chunks, to be written by the commit that follows; the caller holds the
   * exclusive lock.
   *
   * @return whether it rewrote anything
   */
  boolean compactBeforeCommit(MVStore store) {
    long started = System.nanoTime();
    boolean rewrote = store.compact(targetFillRate, writeBytes);
    if (rewrote) {
      long pause = System.nanoTime() - started;
      runs = runs + 1;
      totalNanos = totalNanos + pause;
      longestPauseNanos = Math.max(longestPauseNanos, pause);
    }
    return rewrote;
  }

  /** Rounds in which it rewrote something. */
  long runs() {
    return runs;
  }

  long longestPauseNanos() {
    return longestPauseNanos;
  }

  long totalNanos() {
    return totalNanos;
  }
}
