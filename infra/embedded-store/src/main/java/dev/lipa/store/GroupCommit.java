package dev.lipa.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * Group commit for the on-disk store: a command is answered only once everything it wrote and everything it read is on
 * the disk, so a crash of the store can never undo what a client was told, nor what a client acted on. H2's own
 * background writer is off (it committed about once a second, after the answers had left).
 *
 * <p>What a command changes in a document is appended to the {@link WriteAheadLog} as it is made. A command notes,
 * at its end, the last record appended so far by anyone (it may have read any of them) and waits until the log is on
 * the disk up to there. One committer thread writes and forces the log: the commands that arrive while it forces one
 * group of records form the next group. A command that changes the file's structure (creates or drops a collection or
 * an index) is not in the log; it waits for the next checkpoint instead.
 *
 * <p>A checkpoint commits the H2 file: about once a second ({@link Durability#checkpointEvery}), sooner when the log has
 * grown by {@link #CHECKPOINT_BYTES} or a structural command waits. Commands run under the shared side of a read-write
 * lock and the checkpoint takes the exclusive side, so a commit never falls in the middle of a command (H2 captures the
 * maps' roots one after the other while it commits, and a commit inside a command could store a document without its
 * index entries). The commit carries the log's last sequence number (map {@value #CHECKPOINT_MAP}); once it is on the
 * disk the log's older segments are recycled. Every checkpoint is forced to the disk, whatever the fsync setting, and a
 * dead chunk is kept for {@link #RETENTION_CHECKPOINTS} checkpoints' time before H2 writes over it. A thread of its own compacts sparse chunks
 * meanwhile, as H2's background writer did (see {@link Housekeeping}).
 */
final class GroupCommit implements AutoCloseable {

  /**
   * Checkpoints a dead chunk outlives before H2 writes over it: a margin over H2's own rule (a chunk is reused once no
   * version it keeps needs it, and every checkpoint is on the disk before the next one), for a disk that does not
   * write what it was told to in order. Each checkpoint's chunk is about a second of traffic, so this keeps a few
   * seconds of dead chunks; H2's default, 45 s, would keep about 800 MB of them at 350 payments a second.
   */
  static final int RETENTION_CHECKPOINTS = 5;
  static final long CHECKPOINT_BYTES = Long.getLong("lipa.store.checkpoint-bytes", 64L << 20);
  /** The map in the H2 file that holds the last log record a checkpoint covers. */
  static final String CHECKPOINT_MAP = "lipa.wal";
  static final String CHECKPOINT_KEY = "through";
  /** Commands that change the file's structure; they wait for a checkpoint, whatever they turn out to change. */
  private static final Set<String> STRUCTURAL = Set.of("create", "createindexes", "drop", "dropdatabase",
      "dropindexes", "deleteindexes", "renamecollection");
  /** Set by the store while a command changes the file's structure outside the log (see {@link #structureChanged}). */
  private static final ThreadLocal<boolean[]> STRUCTURE_CHANGED = ThreadLocal.withInitial(() -> new boolean[1]);

  private final MVStore store;
  private final WriteAheadLog log;
  private final MVMap<String, Long> checkpoints;
  private final Durability durability;
  private final Housekeeping housekeeping;
  private final FatalState fatal;
  /** Non-fair: a waiting checkpoint holds back commands that arrive after it, so a checkpoint never starves. */
  private final ReentrantReadWriteLock commands = new ReentrantReadWriteLock();
  private final ReentrantLock progress = new ReentrantLock();
  private final Condition wanted = progress.newCondition();
  private final Condition done = progress.newCondition();
  private final Thread committer;
  private final Housekeeping.Running compactor;
  /** The last log record on the disk (in the log, or in a checkpoint); under {@code progress}. */
  private long durable;
  /** The highest log record a waiting command needs on the disk; under {@code progress}. */
  private long requested;
  /** Checkpoints begun; written under the exclusive lock, read under the shared one. */
  private volatile long checkpointsStarted;
  /** Checkpoints on the disk; under {@code progress}. */
  private long checkpointsFinished;
  /** The highest checkpoint a waiting structural command needs; under {@code progress}. */
  private long checkpointsRequested;
  /** Groups of log records forced to the disk, for tests and the benchmark; under {@code progress}. */
  private long groups;
  private long lastCheckpoint = System.nanoTime();
  private volatile boolean closing;
  /** Closed: the last checkpoint is done, and no command gets another. */
  private volatile boolean stopped;

  /**
   * Starts the group commit of an opened file whose log has been replayed: what the replay changed is checkpointed
   * first, before any command can run.
   */
  GroupCommit(MVStore store, WriteAheadLog log, Durability durability, Housekeeping housekeeping, FatalState fatal) {
    this.store = store;
    this.log = log;
    this.durability = durability;
    this.housekeeping = housekeeping;
    this.fatal = fatal;
    this.checkpoints = store.openMap(CHECKPOINT_MAP);
    fatal.onFailure(this::wakeEveryone);
    store.setRetentionTime((int) Math.min(Integer.MAX_VALUE,
        durability.checkpointEvery().toMillis() * RETENTION_CHECKPOINTS));
    checkpoints.put(CHECKPOINT_KEY, log.appended());
    store.commit(); // whatever opening the databases and replaying the log changed, before the first answer
    FileHeader.write(store);
    store.sync();
    log.begin();
    durable = log.appended();
    committer = Thread.ofPlatform().name("store-committer").daemon().start(this::commitGroups);
    compactor = housekeeping.start(store, fatal);
  }

  /** The last log record the file's last checkpoint covers (0 for a file without a log yet). */
  static long checkpointed(MVStore store) {
    Long through = store.<String, Long>openMap(CHECKPOINT_MAP).get(CHECKPOINT_KEY);
    return through == null ? 0 : through;
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
      needed = structural[0] ? checkpointsStarted + 1 : log.appended();
    } finally {
      shared.unlock();
    }
    if (structural[0]) {
      structural[0] = false;
      awaitCheckpoint(needed);
    } else {
      awaitLog(needed);
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
    progress.lock();
    try {
      return groups;
    } finally {
      progress.unlock();
    }
  }

  /** Checkpoints of the H2 file so far, for tests. */
  long checkpoints() {
    progress.lock();
    try {
      return checkpointsFinished;
    } finally {
      progress.unlock();
    }
  }

  /**
   * Copies the file and its log as they are between two commands, which is what a {@code kill -9} of the store would
   * leave (commands wait meanwhile): the log's records not yet written are written, not forced. For tests.
   */
  void copyTo(Path target) throws IOException {
    Lock exclusive = commands.writeLock();
    exclusive.lock();
    try {
      log.write(false);
      Files.copy(Path.of(store.getFileStore().getFileName()), target, StandardCopyOption.REPLACE_EXISTING);
      log.copyBeside(target);
    } finally {
      exclusive.unlock();
    }
  }

  /**
   * Stops the committer after the groups commands still wait for, and checkpoints what is left. The store refuses
   * commands from then on, without calling it a failure.
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
      compactor.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!fatal.failed() && !store.isClosed()) {
      try {
        checkpoint();
      } catch (RuntimeException e) {
        fatal.fail("the H2 writer failed", e); // what the log holds is applied again at the next start
      }
    }
    log.close();
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

  private void awaitLog(long record) {
    progress.lock();
    try {
      if (durable >= record) {
        return;
      }
      if (record > requested) {
        requested = record;
        wanted.signal();
      }
      while (durable < record) {
        refuseIfDown();
        done.awaitUninterruptibly();
      }
    } finally {
      progress.unlock();
    }
  }

  private void awaitCheckpoint(long checkpoint) {
    progress.lock();
    try {
      if (checkpoint > checkpointsRequested) {
        checkpointsRequested = checkpoint;
        wanted.signal();
      }
      while (checkpointsFinished < checkpoint) {
        refuseIfDown();
        done.awaitUninterruptibly();
      }
    } finally {
      progress.unlock();
    }
  }

  private void commitGroups() {
    try {
      while (true) {
        Work work = awaitWork();
        if (work == Work.STOP) {
          return;
        }
        if (work == Work.LOG && durability.linger().isPositive()) {
          LockSupport.parkNanos(durability.linger().toNanos());
        }
        if (work == Work.CHECKPOINT || checkpointDue()) {
          checkpoint();
        } else {
          writeLog();
        }
      }
    } catch (Throwable e) {
      fatal.fail("the H2 writer failed", e);
    }
  }

  private enum Work { LOG, CHECKPOINT, STOP }

  /** Waits until a command needs the log written, or a checkpoint is due or needed, or the store closes. */
  private Work awaitWork() throws InterruptedException {
    progress.lock();
    try {
      while (true) {
        if (closing || fatal.failed()) {
          return Work.STOP;
        }
        if (checkpointsRequested > checkpointsFinished || checkpointDue()) {
          return Work.CHECKPOINT;
        }
        if (requested > durable) {
          return Work.LOG;
        }
        long wait = durability.checkpointEvery().toNanos() - (System.nanoTime() - lastCheckpoint);
        wanted.await(Math.max(wait, TimeUnit.MILLISECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
      }
    } finally {
      progress.unlock();
    }
  }

  /** A checkpoint is due when the log's records are a checkpoint interval old, or more than {@link #CHECKPOINT_BYTES}. */
  private boolean checkpointDue() {
    long bytes = log.appendedBytes();
    return bytes > 0
        && (System.nanoTime() - lastCheckpoint >= durability.checkpointEvery().toNanos() || bytes >= CHECKPOINT_BYTES);
  }

  /** Writes the log's new records, forced to the disk with fsync on, and answers the commands that waited for them. */
  private void writeLog() {
    long through = log.write(durability.fsync());
    progress.lock();
    try {
      durable = Math.max(durable, through);
      groups++;
      done.signalAll();
    } finally {
      progress.unlock();
    }
  }

  /**
   * Commits the H2 file with the last log record it covers, starts a new log segment, forces the commit to the disk
   * (outside the exclusive lock: the next commands run meanwhile) and deletes the log's older segments.
   */
  private void checkpoint() {
    long checkpoint;
    long through;
    Lock exclusive = commands.writeLock();
    exclusive.lock();
    try {
      checkpoint = checkpointsStarted + 1;
      checkpointsStarted = checkpoint;
      log.write(false); // a crash before the commit is on the disk leaves these records to replay
      through = log.appended();
      if (!Long.valueOf(through).equals(checkpoints.get(CHECKPOINT_KEY))) {
        checkpoints.put(CHECKPOINT_KEY, through);
      }
      if (store.hasUnsavedChanges()) {
        store.commit();
        FileHeader.write(store); // forced to the disk with the commit below
      }
      if (store.isClosed()) {
        throw new IllegalStateException("the store's file was closed under it");
      }
      log.roll();
    } finally {
      exclusive.unlock();
    }
    store.sync();
    log.deleteCheckpointed();
    lastCheckpoint = System.nanoTime();
    progress.lock();
    try {
      durable = Math.max(durable, through);
      checkpointsFinished = checkpoint;
      done.signalAll();
    } finally {
      progress.unlock();
    }
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
