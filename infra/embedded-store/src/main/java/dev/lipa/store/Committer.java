package dev.lipa.store;

import java.util.concurrent.locks.LockSupport;

/**
 * The on-disk store's committer thread, the only one that writes the log and commits the H2 file: it writes and forces
 * the log's records the waiting commands need (the commands that arrive while it forces one group form the next
 * group), and checkpoints when one is due or a structural command waits. A failure of either is fatal to the store.
 */
final class Committer {

  private final WriteAheadLog log;
  private final Checkpoints checkpoints;
  private final CommitProgress progress;
  private final Durability durability;
  private final FatalState fatal;
  private final Thread thread;

  Committer(WriteAheadLog log, Checkpoints checkpoints, CommitProgress progress, Durability durability,
      FatalState fatal) {
    this.log = log;
    this.checkpoints = checkpoints;
    this.progress = progress;
    this.durability = durability;
    this.fatal = fatal;
    this.thread = Thread.ofPlatform().name("store-committer").daemon().start(this::commitGroups);
  }

  /** Waits until the thread has stopped (after {@link CommitProgress#close}, or a failure). */
  void join() throws InterruptedException {
    thread.join();
  }

  /**
   * Checkpoints now and tells the waiting commands: on the committer's thread, or on the closing one once that thread
   * has stopped.
   */
  void checkpoint() {
    Checkpoints.Done checkpoint = checkpoints.checkpoint();
    progress.checkpointed(checkpoint.checkpoint(), checkpoint.through());
  }

  private void commitGroups() {
    try {
      while (true) {
        CommitProgress.Work work = progress.awaitWork(checkpoints::due, checkpoints::nanosUntilDue);
        if (work == CommitProgress.Work.STOP) {
          return;
        }
        if (work == CommitProgress.Work.LOG && durability.linger().isPositive()) {
          LockSupport.parkNanos(durability.linger().toNanos());
        }
        if (work == CommitProgress.Work.CHECKPOINT || checkpoints.due()) {
          checkpoint();
        } else {
          writeLog();
        }
      }
    } catch (Throwable e) {
      fatal.fail("the H2 writer failed", e);
    }
  }

  /** Writes the log's new records, forced to the disk with fsync on, and answers the commands that waited for them. */
  private void writeLog() {
    progress.logWritten(log.write(durability.fsync()));
  }
}
