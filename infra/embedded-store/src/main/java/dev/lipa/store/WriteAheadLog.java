package dev.lipa.store;

import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The on-disk store's write-ahead log: every change of a document (its whole new state, or its removal) is appended here
 * while the change is made, and a command is answered once the log holds its changes on the disk. The H2 file itself is
 * committed only now and then (a checkpoint, see {@link GroupCommit}), so the copy-on-write rewrite of H2's pages that
 * a commit costs is paid about once a second instead of once per group of commands.
 *
 * <p>The log is a series of segment files beside the H2 file ({@code <file>.wal.<first sequence>}). Each record is
 * its length, a CRC-32C of what follows, its sequence number and a BSON document naming the database, the collection,
 * the document's {@code _id} and its new state. A segment's records are numbered on from its name; the first record
 * that is not the next one (zeros, a record cut short or damaged, or an older record) ends it. A checkpoint writes the
 * sequence number it covers into the H2 file in its own commit, starts a new segment, and recycles the older one once
 * that commit is on the disk. Segments are written over in place, never grown ({@link #SEGMENT_BYTES}, zero-filled
 * when first made): forcing an appended file to the disk also forces its new length through the file system's journal,
 * which made each flush of the log several times slower. When the store opens, the records after the file's checkpoint
 * are applied again through the collections (so their indexes follow); a segment that ends before the next one begins
 * means records are missing, and the store refuses to open.
 *
 * <p>Changes are appended under their collection's lock, so the log holds each collection's changes in the order they
 * were made; collections do not depend on one another's order.
 */
final class WriteAheadLog implements AutoCloseable {

  /** A change read back from the log: {@code document} is the document's new state, or null when it was removed. */
  record Change(long sequence, String database, String collection, Object id, Document document) {
  }

  /** A record larger than this (a document is at most 16 MiB) can only be a damaged length. */
  private static final int MAX_RECORD = 17 << 20;
  private static final String SEGMENT_INFIX = ".wal.";
  /** What a segment is made and kept at; one grows past it only while a checkpoint is late. */
  static final long SEGMENT_BYTES = Long.getLong("lipa.store.wal-segment-bytes", 32L << 20);
  /** A checkpointed segment kept to be written over as the next one. */
  private static final String SPARE = ".wal.spare";

  private final Path file;
  private final Object appending = new Object();
  /** Records appended and not yet written to the segment; under {@code appending}. */
  private ByteBuf pending = Unpooled.buffer(1 << 16);
  /** The buffer the last write emptied, reused for the next appends; the writer's. */
  private ByteBuf spare = Unpooled.buffer(1 << 16);
  /** The sequence number of the last record appended; under {@code appending}. */
  private long appended;
  /** Bytes appended since the last checkpoint; under {@code appending}. */
  private long appendedBytes;
  private FileChannel segment;
  private long segmentFirst;
  private long segmentBytes;

  private WriteAheadLog(Path file, long appended) {
    this.file = file;
    this.appended = appended;
  }

  /**
   * Opens the log of the H2 file {@code file} whose last checkpoint covers the records up to {@code checkpointed}, and
   * hands every later record, in order, to {@code replay}. Nothing can be appended until the caller has checkpointed
   * what was replayed and called {@link #begin}.
   */
  static WriteAheadLog open(Path file, long checkpointed, Consumer<Change> replay) {
    long[] last = {checkpointed};
    Long previousEnd = null;
    for (Path segmentFile : segments(file)) {
      long first = first(segmentFile);
      if (previousEnd != null && first != previousEnd + 1) {
        throw new IllegalStateException("the store's write-ahead log is damaged: a segment ends at record "
            + previousEnd + " but the next one, " + segmentFile + ", begins at " + first + "; records are missing");
      }
      previousEnd = read(segmentFile, first, change -> {
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
    startSegment();
  }

  /**
   * Appends a document's new state ({@code document}), or its removal (null). Called while the change is made, under
   * the collection's lock; returns the record's sequence number.
   */
  long append(String database, String collection, Object id, Document document) {
    Document record = new Document("db", database).append("c", collection)
        .append("id", id instanceof Missing ? null : id);
    if (document != null) {
      record.append("doc", document);
    }
    ByteBuf body = Unpooled.buffer(256);
    try {
      BsonEncoder.encodeDocument(record, body);
      synchronized (appending) {
        long sequence = appended + 1;
        CRC32C crc = new CRC32C();
        ByteBuffer sequenceBytes = ByteBuffer.allocate(Long.BYTES).putLong(0, sequence);
        crc.update(sequenceBytes);
        crc.update(body.nioBuffer());
        int length = Long.BYTES + body.readableBytes();
        pending.writeInt(length).writeInt((int) crc.getValue()).writeLong(sequence).writeBytes(body);
        appendedBytes += 8 + length;
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
      ByteBuffer bytes = out.nioBuffer();
      segmentBytes += bytes.remaining();
      while (bytes.hasRemaining()) {
        segment.write(bytes);
      }
      if (force) {
        segment.force(false);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the store's write-ahead log " + segmentName(segmentFirst), e);
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
    if (segmentBytes > 0) {
      closeSegment();
      startSegment();
    }
  }

  /**
   * Recycles the segments before the current one (one is kept as the spare, the others deleted), once a checkpoint
   * covering them is on the disk.
   */
  synchronized void deleteCheckpointed() {
    Path current = segment == null ? null : segmentName(segmentFirst);
    Path spare = spareName();
    for (Path old : segments(file)) {
      if (!old.equals(current)) {
        try {
          if (!Files.exists(spare) && Files.size(old) == SEGMENT_BYTES) {
            Files.move(old, spare);
          } else {
            Files.delete(old);
          }
        } catch (IOException e) {
          throw new UncheckedIOException("could not recycle " + old, e);
        }
      }
    }
  }

  /** Copies the segments beside {@code target} (the copy of the H2 file) under the names they would have there. */
  synchronized void copyBeside(Path target) throws IOException {
    for (Path segmentFile : segments(file)) {
      String suffix = segmentFile.getFileName().toString().substring(file.getFileName().toString().length());
      Files.copy(segmentFile, target.resolveSibling(target.getFileName() + suffix));
    }
  }

  @Override
  public void close() {
    closeSegment();
  }

  /**
   * Opens the segment appends go to: the spare, renamed (its old records end where the new ones do, being older), or a
   * new zero-filled one.
   */
  private void startSegment() {
    segmentFirst = appended() + 1;
    segmentBytes = 0;
    Path name = segmentName(segmentFirst);
    try {
      Path spare = spareName();
      if (Files.exists(spare)) {
        Files.move(spare, name);
      } else {
        zeroFilled(name);
      }
      segment = FileChannel.open(name, StandardOpenOption.WRITE);
      forceDirectory();
    } catch (IOException e) {
      throw new UncheckedIOException("could not create the store's write-ahead log " + name, e);
    }
  }

  private static void zeroFilled(Path name) throws IOException {
    Path making = name.resolveSibling(name.getFileName() + ".new");
    try (FileChannel channel = FileChannel.open(making, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
      for (long written = 0; written < SEGMENT_BYTES; ) {
        zeros.clear().limit((int) Math.min(zeros.capacity(), SEGMENT_BYTES - written));
        written += channel.write(zeros);
      }
      channel.force(true);
    }
    Files.move(making, name);
  }

  private Path spareName() {
    return file.resolveSibling(file.getFileName() + SPARE);
  }

  private static long first(Path segmentFile) {
    String name = segmentFile.getFileName().toString();
    return Long.parseLong(name.substring(name.lastIndexOf('.') + 1));
  }

  private void closeSegment() {
    if (segment != null) {
      try {
        segment.close();
      } catch (IOException e) {
        throw new UncheckedIOException("could not close the store's write-ahead log", e);
      }
      segment = null;
    }
  }

  /** A new segment's name must survive a power cut too, or its records would be lost with it. */
  private void forceDirectory() {
    Path directory = file.toAbsolutePath().getParent();
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // some file systems cannot open a directory; the segment's records are still forced as they are written
    }
  }

  private Path segmentName(long first) {
    return file.resolveSibling(file.getFileName() + SEGMENT_INFIX + String.format(Locale.ROOT, "%020d", first));
  }

  private static List<Path> segments(Path file) {
    Path directory = file.toAbsolutePath().getParent();
    String prefix = file.getFileName() + SEGMENT_INFIX;
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> f.getFileName().toString().matches(Pattern.quote(prefix) + "[0-9]{20}"))
          .sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("could not list the store's write-ahead log beside " + file, e);
    }
  }

  /**
   * Reads one segment's records in order, from {@code first} on, up to the first that is not the next one, and returns
   * the last one's sequence number ({@code first - 1} when there is none).
   */
  private static long read(Path segmentFile, long first, Consumer<Change> replay) {
    long last = first - 1;
    try (InputStream in = Files.newInputStream(segmentFile);
        DataInputStream records = new DataInputStream(new BufferedInputStream(in, 1 << 16))) {
      while (true) {
        int length = records.readInt();
        if (length < Long.BYTES + 5 || length > MAX_RECORD) {
          return last; // zeros where no record was written yet, or a length cut short or damaged
        }
        int crc = records.readInt();
        byte[] bytes = new byte[length];
        records.readFully(bytes);
        CRC32C check = new CRC32C();
        check.update(bytes);
        ByteBuffer record = ByteBuffer.wrap(bytes);
        if ((int) check.getValue() != crc || record.getLong() != last + 1) {
          return last; // cut short or damaged, or a record from the segment's earlier use
        }
        Document body = BsonDecoder.decodeBson(Unpooled.wrappedBuffer(record));
        last++;
        replay.accept(new Change(last, (String) body.get("db"), (String) body.get("c"), body.get("id"),
            (Document) body.get("doc")));
      }
    } catch (EOFException end) {
      return last;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the store's write-ahead log " + segmentFile, e);
    }
  }
}
