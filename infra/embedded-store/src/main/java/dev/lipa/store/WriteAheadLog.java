package dev.lipa.store;

import de.bwaldvogel.mongo.bson.Document;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The on-disk store's write-ahead log: every change of a document (its whole new state, or its removal) is appended here
 * while the change is made, and a command is answered once the log holds its changes on the disk. The H2 file itself is
 * committed only now and then (a checkpoint, see {@link Checkpoints}), so the copy-on-write rewrite of H2's pages that
 * a commit costs is paid about once a second instead of once per group of commands.
 *
 * <p>The log is a series of segment files beside the H2 file ({@link LogSegments}) holding numbered records
 * ({@link LogRecords}). A checkpoint writes the sequence number it covers into the H2 file in its own commit, starts a
 * new segment, and recycles the older one once that commit is on the disk. When the store opens, the records after the
 * file's checkpoint are applied again through the collections (so their indexes follow); a segment that ends before the
 * next one begins means records are missing, and the store refuses to open.
 *
 * <p>Changes are appended under their collection's lock, so the log holds each collection's changes in the order they
 * were made; collections do not depend on one another's order.
 */
final class WriteAheadLog implements AutoCloseable {

  private final LogSegments segments;
  private final Object appending = new Object();
  /** Records appended and not yet written to the segment; under {@code appending}. */
  private ByteBuf pending = Unpooled.buffer(1 << 16);
  /** The buffer the last write emptied, reused for the next appends; the writer's. */
  private ByteBuf spare = Unpooled.buffer(1 << 16);
  /** The sequence number of the last record appended; under {@code appending}. */
  private long appended;
  /** Bytes appended since the last checkpoint; under {@code appending}. */
  private long appendedBytes;
  /** Bytes appended since the log was opened. */
  private long appendedEver;

  private WriteAheadLog(Path file, long appended) {
    this.segments = new LogSegments(file);
    this.appended = appended;
  }

  /**
   * Opens the log of the H2 file {@code file} whose last checkpoint covers the records up to {@code checkpointed}, and
   * hands every later record, in order, to {@code replay}. Nothing can be appended until the caller has checkpointed
   * what was replayed and called {@link #begin}.
   */
  static WriteAheadLog open(Path file, long checkpointed, Consumer<LogRecords.Change> replay) {
    long[] last = {checkpointed};
    Long previousEnd = null;
    for (Path segmentFile : LogSegments.list(file)) {
      long first = LogSegments.first(segmentFile);
      if (previousEnd != null && first != previousEnd + 1) {
        throw new IllegalStateException("the store's write-ahead log is damaged: a segment ends at record "
            + previousEnd + " but the next one, " + segmentFile + ", begins at " + first + "; records are missing");
      }
      previousEnd = LogRecords.read(segmentFile, first, change -> {
        if (change.sequence() > last[0]) {
          if (change.sequence() != last[0] + 1) {
            throw new IllegalStateException("the store's write-ahead log is damaged: the file's checkpoint covers "
                + "records up to " + last[0] + " and the log goes on at " + change.sequence());
          }
          replay.accept(change);
          last[0] = change.sequence();
        }
      });
    }
    return new WriteAheadLog(file, last[0]);
  }

  /**
   * Deletes the segments read while opening, once a checkpoint covering them is on the disk, and starts the segment
   * appends go to. (Deleting them first keeps a record cut short at the end of one from ever sitting before another
   * segment, where it would read as damage.)
   */
  void begin() {
    deleteCheckpointed();
    segments.start(appended() + 1);
  }

  /**
   * Appends a document's new state ({@code document}), or its removal (null). Called while the change is made, under
   * the collection's lock; returns the record's sequence number.
   */
  long append(String database, String collection, Object id, Document document) {
    ByteBuf body = LogRecords.body(database, collection, id, document);
    try {
      synchronized (appending) {
        long sequence = appended + 1;
        int bytes = LogRecords.write(pending, sequence, body);
        appendedBytes += bytes;
        appendedEver += bytes;
        appended = sequence;
        return sequence;
      }
    } finally {
      body.release();
    }
  }

  /** The sequence number of the last record appended. */
  long appended() {
    synchronized (appending) {
      return appended;
    }
  }

  /** Bytes appended since the last checkpoint. */
  long appendedBytes() {
    synchronized (appending) {
      return appendedBytes;
    }
  }

  /** Bytes appended since the log was opened (what the commands have written: the compaction's measure). */
  long appendedEver() {
    synchronized (appending) {
      return appendedEver;
    }
  }

  /**
   * Writes what was appended to the current segment, forced to the disk if {@code force}, and returns the sequence
   * number it covers. One write at a time (the committer's, or a test's copy): each takes the appended records and
   * hands the buffer it emptied to the next.
   */
  synchronized long write(boolean force) {
    ByteBuf out;
    long through;
    synchronized (appending) {
      out = pending;
      pending = spare;
      through = appended;
    }
    try {
      segments.write(out.nioBuffer(), force);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the store's write-ahead log " + segments.current(), e);
    } finally {
      out.clear();
      spare = out;
    }
    return through;
  }

  /**
   * Starts a new segment after a checkpoint that covers everything appended so far (no command runs meanwhile: the
   * committer holds the commands' exclusive lock). The older segments stay until {@link #deleteCheckpointed}.
   */
  synchronized void roll() {
    synchronized (appending) {
      appendedBytes = 0;
    }
    if (segments.written()) {
      segments.close();
      segments.start(appended() + 1);
    }
  }

  /**
   * Recycles the segments before the current one (one is kept as the spare, the others deleted), once a checkpoint
   * covering them is on the disk.
   */
  synchronized void deleteCheckpointed() {
    segments.recycleOlder();
  }

  /** Copies the segments beside {@code target} (the copy of the H2 file) under the names they would have there. */
  synchronized void copyBeside(Path target) throws IOException {
    segments.copyBeside(target);
  }

  @Override
  public void close() {
    segments.close();
  }
}
