package dev.lipa.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The on-disk store's checkpoints: a checkpoint commits the H2 file, about once a second
 * ({@link Durability#checkpointEvery}), sooner when the log has grown by {@link #CHECKPOINT_BYTES}, the pages changed
 * since the last one hold {@link #CHECKPOINT_UNSAVED_BYTES} of the heap, or a structural command waits. Commands run
 * under the shared side of a read-write lock and the checkpoint takes the exclusive side, so a commit never falls in
 * the middle of a command (H2 captures the maps' roots one after the other while it commits, and a commit inside a
 * command could store a document without its index entries). The commit carries the log's last sequence number (map
 * {@value #CHECKPOINT_MAP}); once it is on the disk the log's older segments are recycled. Every checkpoint is forced
 * to the disk, whatever the fsync setting, and a dead chunk is kept for {@link #RETENTION_CHECKPOINTS} checkpoints'
 * time before H2 writes over it.
 */
final class Checkpoints {

  /**
   * Checkpoints a dead chunk outlives before H2 writes over it: a margin over H2's own rule (a chunk is reused once no
   * version it keeps needs it, and every checkpoint is on the disk before the next one), for a disk that does not
   * write what it was told to in order. Each checkpoint's chunk is about a second of traffic, so this keeps a few
   * seconds of dead chunks; H2's default, 45 s, would keep about 800 MB of them at 350 payments a second.
   */
  static final int RETENTION_CHECKPOINTS = 5;
  static final long CHECKPOINT_BYTES = Long.getLong("lipa.store.checkpoint-bytes", 64L << 20);
  /**
   * What H2 estimates the pages changed since the last checkpoint hold in memory, at most, before a checkpoint falls
   * due (system property {@code lipa.store.checkpoint-unsaved-bytes}). A changed page stays on the heap, with
   * everything it holds decoded, until a checkpoint writes it. A bulk insert of random keys changes a page of the
   * documents and of every index for each document it adds: without this bound, a second of them held hundreds of
   * megabytes, and the store ran out of its 768 MB heap while {@code ./platform bench --fill} wrote a million payments.
   */
  static final long CHECKPOINT_UNSAVED_BYTES = Long.getLong("lipa.store.checkpoint-unsaved-bytes", 64L << 20);
  /** The map in the H2 file that holds the last log record a checkpoint covers. */
  static final String CHECKPOINT_MAP = "lipa.wal";
  static final String CHECKPOINT_KEY = "through";

  /** A checkpoint on the disk: its number, and the last log record it covers. */
  record Done(long checkpoint, long through) {
  }

  private final MVStore store;
  private final WriteAheadLog log;
  private final Durability durability;
  private final MVMap<String, Long> covered;
  /** Non-fair: a waiting checkpoint holds back commands that arrive after it, so a checkpoint never starves. */
  private final ReentrantReadWriteLock commands = new ReentrantReadWriteLock();
  /** Checkpoints begun; written under the exclusive lock, read under the shared one. */
  private volatile long started;
  /** When the last checkpoint was on the disk; the committer's (and the closing thread's once it has stopped). */
  private long last = System.nanoTime();

  /**
   * Checkpoints the opened file whose log has been replayed, before any command can run: whatever opening the
   * databases and replaying the log changed is committed with the log's last record.
   */
  Checkpoints(MVStore store, WriteAheadLog log, Durability durability) {
    this.store = store;
    this.log = log;
    this.durability = durability;
    this.covered = store.openMap(CHECKPOINT_MAP);
    store.setRetentionTime((int) Math.min(Integer.MAX_VALUE,
        durability.checkpointEvery().toMillis() * RETENTION_CHECKPOINTS));
    covered.put(CHECKPOINT_KEY, log.appended());
    store.commit();
    FileHeader.write(store);
    store.sync();
  }

  /** The last log record the file's last checkpoint covers (0 for a file without a log yet). */
  static long checkpointed(MVStore store) {
    Long through = store.<String, Long>openMap(CHECKPOINT_MAP).get(CHECKPOINT_KEY);
    return through == null ? 0 : through;
  }

  /** The shared side of the lock, which every command holds while it runs. */
  Lock commandLock() {
    return commands.readLock();
  }

  /** The checkpoint that will hold what the commands so far have done (under {@link #commandLock}). */
  long next() {
    return started + 1;
  }

  /**
   * Due when the log's records are a checkpoint interval old, or more than {@link #CHECKPOINT_BYTES}, or the changes
   * they made hold more than {@link #CHECKPOINT_UNSAVED_BYTES} of the heap (read without a lock: an estimate either
   * way).
   */
  boolean due() {
    long bytes = log.appendedBytes();
    return bytes > 0
        && (System.nanoTime() - last >= durability.checkpointEvery().toNanos() || bytes >= CHECKPOINT_BYTES
            || store.getUnsavedMemory() >= CHECKPOINT_UNSAVED_BYTES);
  }

  /** How long until a checkpoint falls due by time. */
  long nanosUntilDue() {
    return durability.checkpointEvery().toNanos() - (System.nanoTime() - last);
  }

  /**
   * Commits the H2 file with the last log record it covers, starts a new log segment, forces the commit to the disk
   * (outside the exclusive lock: the next commands run meanwhile) and deletes the log's older segments.
   */
  Done checkpoint() {
    long checkpoint;
    long through;
    Lock exclusive = commands.writeLock();
    exclusive.lock();
    try {
      checkpoint = started + 1;
      started = checkpoint;
      log.write(false); // a crash before the commit is on the disk leaves these records to replay
      through = log.appended();
      if (!Long.valueOf(through).equals(covered.get(CHECKPOINT_KEY))) {
        covered.put(CHECKPOINT_KEY, through);
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
    last = System.nanoTime();
    return new Done(checkpoint, through);
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
}
