package dev.lipa.store;

import java.util.function.LongSupplier;
import org.h2.mvstore.MVStore;

/**
 * The on-disk store's compaction, which H2's background writer did before the group commit turned it off. Every commit
 * rewrites the pages it changed into a new chunk; a page that is not changed again (a payment settled and left alone)
 * keeps its old chunk alive, however little else in it is still live, so a file that only takes new documents grows
 * several times faster than its data. So twice a second ({@link #ROUND_MILLIS}), while the chunks hold less than
 * {@code targetFillRate} percent live data, a thread of its own rewrites the live pages of the sparsest old chunks, and
 * they go into the next checkpoint's commit: the old chunks die and their space is used again. A rewrite changes no
 * document (H2's own background writer rewrites pages while its maps are written), and H2's store lock keeps it and a
 * commit apart, so it needs none of the commands' locks and pauses no command.
 *
 * <p><b>Paid as the store is written.</b> A round rewrites at most {@link #REWRITE_PER_BYTE_WRITTEN} times what the
 * commands wrote since the round before (the write-ahead log's bytes), and at most {@code writeBytes}; a round after
 * which nothing was written rewrites nothing. H2 rewrites the live pages of whichever chunks come first in its order
 * (the sparsest and oldest first) until the limit, dense ones included, once the file as a whole is under the target:
 * with a fixed 16 MB a round, a store under a steady trickle of writes (whose newest chunks always leave the file
 * under 80% live) rewrote 32 MB a second of pages that were already dense, forever, and spent a third of a core and most
 * of its garbage collections on it at 20 payments a second (its young collections promoted 30 MB each, and every ten
 * seconds every command waited); an idle store kept rewriting its densest chunks into new ones. Bounded by the traffic,
 * the work is a fixed share of the writes, the sparsest chunks are still the first rewritten, and an idle store does
 * nothing. H2 only picks a chunk whose live pages fit in the round's limit; a checkpoint's chunk holds a second of
 * traffic (under load, about 2,000 pages and 18 MB, of which a tenth stays live once later checkpoints have rewritten
 * the rest), and that tenth is well under the limit the same second of traffic buys.
 */
final class Housekeeping {

  /** How often the thread compacts. */
  static final long ROUND_MILLIS = 500;
  /** The most a round rewrites, per byte the commands wrote since the round before. */
  static final int REWRITE_PER_BYTE_WRITTEN = 4;

  private final int targetFillRate;
  private final int writeBytes;
  private final int rewritePerByteWritten;
  private volatile long runs;
  private volatile long longestPauseNanos;
  private volatile long totalNanos;

  /**
   * @param targetFillRate the share of live data (percent) in the file's chunks below which it compacts
   * @param writeBytes the most live data one round rewrites
   */
  Housekeeping(int targetFillRate, int writeBytes) {
    this(targetFillRate, writeBytes, REWRITE_PER_BYTE_WRITTEN);
  }

  /**
   * @param rewritePerByteWritten the most a round rewrites per byte written since the round before; 0: every round
   *     rewrites up to {@code writeBytes} whatever was written (the store before its compaction was paced, for
   *     measuring)
   */
  Housekeeping(int targetFillRate, int writeBytes, int rewritePerByteWritten) {
    this.targetFillRate = targetFillRate;
    this.writeBytes = writeBytes;
    this.rewritePerByteWritten = rewritePerByteWritten;
  }

  /**
   * Below 80% live data, at most 16 MB a round (chunks of up to about 16 MB of live data, a second's worth at well over
   * a thousand payments a second) and at most {@link #REWRITE_PER_BYTE_WRITTEN} times what was written; the system
   * properties {@code lipa.store.compact-fill-rate}, {@code lipa.store.compact-bytes} and
   * {@code lipa.store.compact-per-byte-written} change them (a fill rate of 0 turns compaction off, a rewrite per
   * byte of 0 unpaces it), for measuring.
   */
  static Housekeeping standard() {
    return new Housekeeping(Integer.getInteger("lipa.store.compact-fill-rate", 80),
        Integer.getInteger("lipa.store.compact-bytes", 16 << 20),
        Integer.getInteger("lipa.store.compact-per-byte-written", REWRITE_PER_BYTE_WRITTEN));
  }

  /**
   * Rewrites the live pages of a few sparse chunks, at most {@code writeBytes} of them, to be written by the next
   * commit.
   *
   * @return whether it rewrote anything
   */
  boolean compact(MVStore store) {
    return compact(store, writeBytes);
  }

  /**
   * One round of the thread: rewrites what the {@code written} bytes the commands wrote since the round before pay for
   * (see the class comment), nothing when they wrote nothing.
   *
   * @return whether it rewrote anything
   */
  boolean round(MVStore store, long written) {
    if (rewritePerByteWritten == 0) {
      return compact(store, writeBytes);
    }
    if (written <= 0) {
      return false;
    }
    return compact(store, (int) Math.min(writeBytes, written * rewritePerByteWritten));
  }

  private boolean compact(MVStore store, int limit) {
    long started = System.nanoTime();
    boolean rewrote = store.compact(targetFillRate, limit);
    if (rewrote) {
      long pause = System.nanoTime() - started;
      runs = runs + 1;
      totalNanos = totalNanos + pause;
      longestPauseNanos = Math.max(longestPauseNanos, pause);
    }
    return rewrote;
  }

  /**
   * Starts the thread that compacts {@code store} every {@link #ROUND_MILLIS} until the returned handle is closed, each
   * round paid by what {@code written} (the bytes the commands have written so far) grew by; a failure while compacting
   * is fatal to the store.
   */
  Running start(MVStore store, LongSupplier written, FatalState fatal) {
    return new Running(store, written, fatal);
  }

  /** The compacting thread; closing it stops it after its current round. */
  final class Running implements AutoCloseable {

    private final Thread thread;
    private volatile boolean stopping;

    private Running(MVStore store, LongSupplier written, FatalState fatal) {
      thread = Thread.ofPlatform().name("store-housekeeping").daemon().start(() -> {
        try {
          long before = written.getAsLong();
          while (!stopping && !fatal.failed()) {
            Thread.sleep(ROUND_MILLIS);
            long now = written.getAsLong();
            if (!stopping && !store.isClosed()) {
              round(store, now - before);
            }
            before = now;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (Throwable e) {
          fatal.fail("the H2 writer failed while compacting", e);
        }
      });
    }

    /** Waits for the round under way: no interrupt, which H2 would turn into a failed compaction. */
    @Override
    public void close() throws InterruptedException {
      stopping = true;
      thread.join();
    }
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
