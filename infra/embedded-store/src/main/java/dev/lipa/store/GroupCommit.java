package dev.lipa.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;
import org.h2.mvstore.MVStore;

/**
 * Group commit for the on-disk store: a command is answered only once everything it wrote and everything it read is on
 * the disk, so a crash of the store can never undo what a client was told, nor what a client acted on. H2's own
 * background writer is off (it committed about once a second, after the answers had left).
 *
 * <p>What a command changes in a document is appended to the {@link WriteAheadLog} as it is made. A command notes,
 * at its end, the last record appended so far by anyone (it may have read any of them) and waits until the log is on
 * the disk up to there ({@link CommitProgress}). One {@link Committer} thread writes and forces the log: the commands
 * that arrive while it forces one group of records form the next group. A command that changes the file's structure
 * (creates or drops a collection or an index) is not in the log; it waits for the next of the {@link Checkpoints}
 * instead, which commit the H2 file under the exclusive side of the lock commands share. A thread of its own compacts
 * sparse chunks meanwhile, as H2's background writer did (see {@link Housekeeping}).
 */
final class GroupCommit implements AutoCloseable {

  /** Commands that change the file's structure; they wait for a checkpoint, whatever they turn out to change. */
  private static final Set<String> STRUCTURAL = Set.of("create", "createindexes", "drop", "dropdatabase",
      "dropindexes", "deleteindexes", "renamecollection");
  /** Set by the store while a command changes the file's structure outside the log (see {@link #structureChanged}). */
  private static final ThreadLocal<boolean[]> STRUCTURE_CHANGED = ThreadLocal.withInitial(() -> new boolean[1]);

  private final MVStore store;
  private final WriteAheadLog log;
  private final Housekeeping housekeeping;
  private final FatalState fatal;
  private final Checkpoints checkpoints;
  private final CommitProgress progress;
  private final Committer committer;
  private final Housekeeping.Running compactor;
  /** Closed: the last checkpoint is done, and no command gets another. */
  private volatile boolean stopped;

  /**
   * Starts the group commit of an opened file whose log has been replayed: what the replay changed is checkpointed
   * first, before any command can run.
   */
  GroupCommit(MVStore store, WriteAheadLog log, Durability durability, Housekeeping housekeeping, FatalState fatal) {
    this.store = store;
    this.log = log;
    this.housekeeping = housekeeping;
    this.fatal = fatal;
    this.checkpoints = new Checkpoints(store, log, durability);
    log.begin();
    this.progress = new CommitProgress(log.appended(), fatal);
    fatal.onFailure(progress::wakeEveryone);
    this.committer = new Committer(log, checkpoints, progress, durability, fatal);
    this.compactor = housekeeping.start(store, log::appendedEver, fatal);
  }

  /** Tells the running command that it changed the file's structure, which the log does not hold. */
  static void structureChanged() {
    STRUCTURE_CHANGED.get()[0] = true;
  }

  /**
   * Runs a command under the shared lock and returns its answer once the disk holds what it did and saw. A command that
   * fails is held back the same way (it may have written part of its work) before its failure is thrown.
   */
  <T> T run(String name, Supplier<T> command) {
    refuseIfDown();
    boolean[] structural = STRUCTURE_CHANGED.get();
    structural[0] = name != null && STRUCTURAL.contains(name.toLowerCase(Locale.ROOT));
    T answer = null;
    RuntimeException failure = null;
    long needed;
    Lock shared = checkpoints.commandLock();
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
      needed = structural[0] ? checkpoints.next() : log.appended();
    } finally {
      shared.unlock();
    }
    if (structural[0]) {
      structural[0] = false;
      progress.awaitCheckpoint(needed, this::refuseIfDown);
    } else {
      progress.awaitLog(needed, this::refuseIfDown);
    }
    if (failure != null) {
      throw failure;
    }
    return answer;
  }

  Housekeeping housekeeping() {
    return housekeeping;
  }

  /** Groups of log records forced to the disk so far, for tests and the benchmark. */
  long rounds() {
    return progress.groups();
  }

  /** Checkpoints of the H2 file so far, for tests. */
  long checkpoints() {
    return progress.checkpoints();
  }

  /** What a {@code kill -9} of the store would leave now (see {@link Checkpoints#copyTo}). For tests. */
  void copyTo(Path target) throws IOException {
    checkpoints.copyTo(target);
  }

  /**
   * Stops the committer after the groups commands still wait for, and checkpoints what is left. The store refuses
   * commands from then on, without calling it a failure.
   */
  @Override
  public void close() {
    progress.close();
    try {
      committer.join();
      compactor.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!fatal.failed() && !store.isClosed()) {
      try {
        committer.checkpoint();
      } catch (RuntimeException e) {
        fatal.fail("the H2 writer failed", e); // what the log holds is applied again at the next start
      }
    }
    log.close();
    stopped = true;
    progress.wakeEveryone();
  }

  private void refuseIfDown() {
    fatal.check();
    if (stopped) {
      throw FatalState.shuttingDown("the store is shutting down");
    }
    if (store.isClosed()) {
      if (progress.closing()) {
        throw FatalState.shuttingDown("the store is shutting down");
      }
      fatal.fail("the store's file was closed under it", new IllegalStateException("MVStore closed"));
      fatal.check();
    }
  }
}
