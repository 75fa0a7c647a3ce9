package dev.lipa.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.h2.mvstore.MVStore;

/**
 * Group commit for the on-disk store: a command is answered only once a commit of the H2 file covers everything it
 * wrote and everything it read, so a crash of the store can never undo what a client was told, nor what a client acted
 * on. H2's own background writer is off (it committed about once a second, after the answers had left).
 *
 * <p>Commands run under the shared side of a read-write lock, and one committer thread commits under the exclusive
 * side, so a commit never falls in the middle of a command: H2 captures the maps' roots one after the other while it
 * commits, and a commit inside a command could store a document without its index entries. Commits are counted in
 * rounds: a command notes, still under the shared lock, which round it needs (the next one if the file lacks anything
 * in memory, else the round being written, if any), and waits for it after releasing the lock. While one round is
 * written (and forced to the disk, with fsync on, outside the exclusive lock), the commands that arrive run and gather
 * for the next one. In a round that writes, the committer also compacts a few sparse chunks, which H2's background
 * writer did before (see {@link Housekeeping}).
 *
 * <p>H2 keeps a dead chunk's space for a retention time (45 s by default, for file systems that flush late) before it
 * writes over it; at hundreds of commits a second that alone grew a file by a gigabyte. Here there is none beyond H2's
 * last five versions, and what makes overwriting safe is the disk flush: with fsync on, every commit is on the disk
 * before the next one can reuse anything; with fsync off, the committer flushes the file once a second and pins the
 * version it flushed, so no chunk that version still needs is overwritten before the next flush. No reader spans a
 * commit (commands hold the shared lock, and mongo-java-server's cursors hold documents, not map iterators), so none
 * needs an old chunk longer: a reader that did (a lazy cursor over an H2 map across getMore calls) would need the
 * retention back.
 */
final class GroupCommit implements AutoCloseable {

  /** Dead chunks are reused once H2's last five versions no longer need them (see above). */
  private static final int RETENTION_MILLIS = 0;
  /** With fsync off: how often the committer flushes the file to the disk all the same. */
  private static final long FLUSH_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final MVStore store;
  private final Durability durability;
  private final Housekeeping housekeeping;
  private final FatalState fatal;
  /** Non-fair: a waiting committer holds back commands that arrive after it, so a commit never starves. */
  private final ReentrantReadWriteLock commands = new ReentrantReadWriteLock();
  private final ReentrantLock progress = new ReentrantLock();
  private final Condition wanted = progress.newCondition();
  private final Condition done = progress.newCondition();
  private final Thread committer;
  /** Rounds begun; written under the exclusive lock, read under the shared one. */
  private volatile long started;
  /** Rounds whose commit is in the file (and on the disk, with fsync on); under {@code progress}. */
  private long finished;
  /** The highest round a waiting command needs; under {@code progress}. */
  private long requested;
  private volatile boolean closing;
  /** Closed: the last round is done, and no command gets another. */
  private volatile boolean stopped;
  /** With fsync off: the version the last flush made durable, kept from being overwritten; committer's thread. */
  private MVStore.TxCounter flushed;
  private long lastFlush = System.nanoTime();
  private boolean unflushed;

  GroupCommit(MVStore store, Durability durability, Housekeeping housekeeping, FatalState fatal) {
    this.store = store;
    this.durability = durability;
    this.housekeeping = housekeeping;
    this.fatal = fatal;
    fatal.onFailure(this::wakeEveryone);
    store.setRetentionTime(RETENTION_MILLIS);
    store.commit(); // whatever opening the databases created, before the first answer
    flush();
    committer = Thread.ofPlatform().name("store-committer").daemon().start(this::commitRounds);
  }

  /**
   * Runs a command under the shared lock and returns its answer once the file holds what it did and saw. A command that
   * fails is held back the same way (it may have written part of its work) before its failure is thrown.
   */
  <T> T run(Supplier<T> command) {
    refuseIfDown();
    T answer = null;
    RuntimeException failure = null;
    long needed;
    Lock shared = commands.readLock();
    shared.lock();
    try {
      try {
        answer = command.get();
      } catch (RuntimeException e) {
        failure = e;
      } catch (OutOfMemoryError e) {
        fatal.fail("out of memory", e);
        throw e;
      }
      refuseIfDown();
      needed = store.hasUnsavedChanges() ? started + 1 : started;
    } finally {
      shared.unlock();
    }
    awaitRound(needed);
    if (failure != null) {
      throw failure;
    }
    return answer;
  }

  Housekeeping housekeeping() {
    return housekeeping;
  }

  /** Commits rounds (these finished so far), for tests and the benchmark. */
  long rounds() {
    progress.lock();
    try {
      return finished;
    } finally {
      progress.unlock();
    }
  }

  /**
   * Copies the file as it is between two commits, which is what a {@code kill -9} of the store would leave: a
   * consistent copy while the store runs (commands wait meanwhile). For tests.
   */
  void copyTo(Path target) throws IOException {
    Lock exclusive = commands.writeLock();
    exclusive.lock();
    try {
      Files.copy(Path.of(store.getFileStore().getFileName()), target, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      exclusive.unlock();
    }
  }

  /**
   * Stops the committer after the rounds commands still wait for, and commits what is left. The store refuses commands
   * from then on, without calling it a failure.
   */
  @Override
  public void close() {
    progress.lock();
    try {
      closing = true;
      wanted.signalAll();
    } finally {
      progress.unlock();
    }
    try {
      committer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!fatal.failed() && !store.isClosed()) {
      commitRound();
      flush();
      if (flushed != null) {
        store.deregisterVersionUsage(flushed); // H2 closes the file with no version pinned
        flushed = null;
      }
    }
    stopped = true;
    wakeEveryone();
  }

  private void refuseIfDown() {
    fatal.check();
    if (stopped) {
      throw FatalState.shuttingDown("the store is shutting down");
    }
    if (store.isClosed()) {
      if (closing) {
        throw FatalState.shuttingDown("the store is shutting down");
      }
      fatal.fail("the store's file was closed under it", new IllegalStateException("MVStore closed"));
      fatal.check();
    }
  }

  private void awaitRound(long round) {
    progress.lock();
    try {
      if (finished >= round) {
        return;
      }
      if (round > requested) {
        requested = round;
        wanted.signal();
      }
      while (finished < round) {
        refuseIfDown();
        done.awaitUninterruptibly();
      }
    } finally {
      progress.unlock();
    }
  }

  private void commitRounds() {
    try {
      while (awaitWork()) {
        if (durability.linger().isPositive()) {
          LockSupport.parkNanos(durability.linger().toNanos());
        }
        commitRound();
      }
    } catch (Throwable e) {
      fatal.fail("the H2 writer failed", e);
    }
  }

  /** Waits until a command needs a round or a flush is due (true), or the store closes (false). */
  private boolean awaitWork() throws InterruptedException {
    progress.lock();
    try {
      while (requested <= finished) {
        if (closing || fatal.failed()) {
          return false;
        }
        if (!wanted.await(FLUSH_EVERY_NANOS, TimeUnit.NANOSECONDS) && flushDue()) {
          return true;
        }
      }
      return !fatal.failed();
    } finally {
      progress.unlock();
    }
  }

  private void commitRound() {
    long round;
    Lock exclusive = commands.writeLock();
    exclusive.lock();
    try {
      round = started + 1;
      started = round;
      if (store.hasUnsavedChanges()) {
        housekeeping.compactBeforeCommit(store); // rides in this round's commit
      }
      if (store.commit() >= 0) {
        unflushed = true;
      }
      if (store.isClosed()) {
        throw new IllegalStateException("the store's file was closed under it");
      }
    } finally {
      exclusive.unlock();
    }
    if (unflushed && durability.fsync() || flushDue()) {
      flush(); // outside the exclusive lock: the next round's commands run meanwhile
    }
    progress.lock();
    try {
      finished = round;
      done.signalAll();
    } finally {
      progress.unlock();
    }
  }

  private boolean flushDue() {
    return unflushed && System.nanoTime() - lastFlush >= FLUSH_EVERY_NANOS;
  }

  /**
   * Forces the file to the disk. With fsync off it also pins the version it made durable (and lets go of the one
   * before), so that H2 writes over no chunk that version needs until the next flush has made a newer one durable.
   */
  private void flush() {
    MVStore.TxCounter pin = durability.fsync() ? null : store.registerVersionUsage();
    store.sync();
    if (flushed != null) {
      store.deregisterVersionUsage(flushed);
    }
    flushed = pin;
    lastFlush = System.nanoTime();
    unflushed = false;
  }

  private void wakeEveryone() {
    progress.lock();
    try {
      done.signalAll();
      wanted.signalAll();
    } finally {
      progress.unlock();
    }
  }
}
