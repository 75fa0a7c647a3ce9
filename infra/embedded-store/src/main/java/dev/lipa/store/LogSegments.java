package dev.lipa.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The write-ahead log's segment files beside the H2 file ({@code <file>.wal.<first sequence>}, twenty digits) and the
 * one being written. Segments are written over in place, never grown ({@link #SEGMENT_BYTES}, zero-filled when first
 * made): forcing an appended file to the disk also forces its new length through the file system's journal, which made
 * each flush of the log several times slower. A checkpointed segment is kept as the spare and written over as the next
 * one. The log's writer's: not safe for concurrent use.
 */
final class LogSegments {

  private static final String SEGMENT_INFIX = ".wal.";
  /** What a segment is made and kept at; one grows past it only while a checkpoint is late. */
  static final long SEGMENT_BYTES = Long.getLong("lipa.store.wal-segment-bytes", 32L << 20);
  /** A checkpointed segment kept to be written over as the next one. */
  private static final String SPARE = ".wal.spare";

  private final Path file;
  private FileChannel segment;
  private long segmentFirst;
  private long segmentBytes;

  /** The segments of the H2 file {@code file}; none is open until {@link #start}. */
  LogSegments(Path file) {
    this.file = file;
  }

  /** The segment files beside the H2 file {@code file}, oldest first. */
  static List<Path> list(Path file) {
    Path directory = file.toAbsolutePath().getParent();
    String prefix = file.getFileName() + SEGMENT_INFIX;
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> f.getFileName().toString().matches(Pattern.quote(prefix) + "[0-9]{20}"))
          .sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("could not list the store's write-ahead log beside " + file, e);
    }
  }

  /** The sequence number of a segment's first record, from its name. */
  static long first(Path segmentFile) {
    String name = segmentFile.getFileName().toString();
    return Long.parseLong(name.substring(name.lastIndexOf('.') + 1));
  }

  /**
   * Opens the segment appends go to, its first record {@code first}: the spare, renamed (its old records end where the
   * new ones do, being older), or a new zero-filled one.
   */
  void start(long first) {
    segmentFirst = first;
    segmentBytes = 0;
    Path name = name(segmentFirst);
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

  /** Writes {@code bytes} after what the current segment holds, forced to the disk if {@code force}. */
  void write(ByteBuffer bytes, boolean force) throws IOException {
    segmentBytes += bytes.remaining();
    while (bytes.hasRemaining()) {
      segment.write(bytes);
    }
    if (force) {
      segment.force(false);
    }
  }

  /** Whether the current segment holds any record. */
  boolean written() {
    return segmentBytes > 0;
  }

  /** The current segment's name, for messages. */
  Path current() {
    return name(segmentFirst);
  }

  /** Recycles the segments before the current one: one is kept as the spare, the others deleted. */
  void recycleOlder() {
    Path current = segment == null ? null : current();
    Path spare = spareName();
    for (Path old : list(file)) {
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
  void copyBeside(Path target) throws IOException {
    for (Path segmentFile : list(file)) {
      String suffix = segmentFile.getFileName().toString().substring(file.getFileName().toString().length());
      Files.copy(segmentFile, target.resolveSibling(target.getFileName() + suffix));
    }
  }

  /** Closes the current segment, if one is open. */
  void close() {
    if (segment != null) {
      try {
        segment.close();
      } catch (IOException e) {
        throw new UncheckedIOException("could not close the store's write-ahead log", e);
      }
      segment = null;
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

  /** A new segment's name must survive a power cut too, or its records would be lost with it. */
  private void forceDirectory() {
    Path directory = file.toAbsolutePath().getParent();
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // some file systems cannot open a directory; the segment's records are still forced as they are written
    }
  }

  private Path name(long first) {
    return file.resolveSibling(file.getFileName() + SEGMENT_INFIX + String.format(Locale.ROOT, "%020d", first));
  }
}
