package dev.lipa.store;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * What the on-disk store holds on the disk and what its commands wait for: the last log record on the disk (in the log,
 * or in a checkpoint), the checkpoints finished, and the highest of each that a waiting command needs. Commands wait
 * here until the disk holds what they did and saw; the {@link Committer} waits here until a command needs something.
 * One lock keeps both sides' view the same, so no request is missed between a look and a wait.
 */
final class CommitProgress {

  /** What the committer is to do next. */
  enum Work { LOG, CHECKPOINT, STOP }

  private final FatalState fatal;
  private final ReentrantLock lock = new ReentrantLock();
  /** The committer waits on it for work. */
  private final Condition wanted = lock.newCondition();
  /** Commands wait on it for the disk. */
  private final Condition done = lock.newCondition();
  /** The last log record on the disk (in the log, or in a checkpoint). */
  private long durable;
  /** The highest log record a waiting command needs on the disk. */
  private long requested;
  /** Checkpoints on the disk. */
  private long checkpointsFinished;
  /** The highest checkpoint a waiting structural command needs. */
  private long checkpointsRequested;
  /** Groups of log records forced to the disk, for tests and the benchmark. */
  private long groups;
  private volatile boolean closing;

  /** Starts from a file whose last checkpoint, or log, holds every record up to {@code durable}. */
  CommitProgress(long durable, FatalState fatal) {
    this.durable = durable;
    this.fatal = fatal;
  }

  /**
   * Waits until the disk holds the log up to {@code record}, asking the committer for it; {@code refuseIfDown} throws
   * when the store fails or closes meanwhile.
   */
  void awaitLog(long record, Runnable refuseIfDown) {
    lock.lock();
    try {
      if (durable >= record) {
        return;
      }
      if (record > requested) {
        requested = record;
        wanted.signal();
      }
      while (durable < record) {
        refuseIfDown.run();
        done.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the disk holds checkpoint {@code checkpoint}, asking the committer for it; the same way. */
  void awaitCheckpoint(long checkpoint, Runnable refuseIfDown) {
    lock.lock();
    try {
      if (checkpoint > checkpointsRequested) {
        checkpointsRequested = checkpoint;
        wanted.signal();
      }
      while (checkpointsFinished < checkpoint) {
        refuseIfDown.run();
        done.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The committer's wait: until a command needs the log written, or a checkpoint is needed or {@code checkpointDue}, or
   * the store closes or fails; at most {@code untilDue} nanoseconds at a time, when a checkpoint falls due unasked.
   */
  Work awaitWork(BooleanSupplier checkpointDue, LongSupplier untilDue) throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        if (closing || fatal.failed()) {
          return Work.STOP;
        }
        if (checkpointsRequested > checkpointsFinished || checkpointDue.getAsBoolean()) {
          return Work.CHECKPOINT;
        }
        if (requested > durable) {
          return Work.LOG;
        }
        long wait = untilDue.getAsLong();
        wanted.await(Math.max(wait, TimeUnit.MILLISECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  /** The log is on the disk up to {@code through}: answers the commands that waited for it. */
  void logWritten(long through) {
    lock.lock();
    try {
      durable = Math.max(durable, through);
      groups++;
      done.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Checkpoint {@code checkpoint} is on the disk, covering the log up to {@code through}. */
  void checkpointed(long checkpoint, long through) {
    lock.lock();
    try {
      durable = Math.max(durable, through);
      checkpointsFinished = checkpoint;
      done.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Tells the committer to stop after the work under way. */
  void close() {
    lock.lock();
    try {
      closing = true;
      wanted.signalAll();
    } finally {
      lock.unlock();
    }
  }

  boolean closing() {
    return closing;
  }

  /** Wakes every waiter to look again: the store failed or stopped. */
  void wakeEveryone() {
    lock.lock();
    try {
      done.signalAll();
      wanted.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Groups of log records forced to the disk so far. */
  long groups() {
    lock.lock();
    try {
      return groups;
    } finally {
      lock.unlock();
    }
  }

  /** Checkpoints on the disk so far. */
  long checkpoints() {
    lock.lock();
    try {
      return checkpointsFinished;
    } finally {
      lock.unlock();
    }
  }
}
