package dev.lipa.infra.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * How long each platform JVM's JIT compilers have compiled, read from HotSpot's own performance counters: the
 * {@code hsperfdata_<user>/<pid>} file every HotSpot JVM keeps in its temporary directory (what {@code jstat -compiler}
 * reads). Nothing attaches to the JVM and nothing runs in it.
 *
 * <p>On two cores, eight JVMs compiling their hot paths take minutes of load before their figures settle: the compile
 * time of a step says whether that step measured the platform or its JIT. The figure is HotSpot's elapsed compile time
 * ({@code sun.ci.standardTime + sun.ci.osrTime}), not CPU time: on a busy machine it includes the time a compiler
 * thread waited for a core, which is still time the JIT was not done.
 */
final class JitTime {

  static final String STANDARD_TIME = "sun.ci.standardTime";
  static final String OSR_TIME = "sun.ci.osrTime";
  static final String COMPILES = "sun.ci.totalCompiles";
  static final String FREQUENCY = "sun.os.hrt.frequency";
  private static final int MAGIC = 0xcafec0c0;
  private static final int PROLOGUE_BYTES = 32;
  private static final byte LONG_TYPE = 'J';

  /** Compile nanoseconds and compiled methods per process at one moment. */
  record Snapshot(Map<String, Long> nanos, Map<String, Long> compiles) {

    /** The compile time and methods compiled since {@code before}, over the processes present in both. */
    Usage since(Snapshot before) {
      long totalNanos = 0;
      long totalCompiles = 0;
      for (Map.Entry<String, Long> entry : nanos.entrySet()) {
        Long was = before.nanos.get(entry.getKey());
        if (was != null && entry.getValue() >= was) {
          totalNanos += entry.getValue() - was;
          totalCompiles += Math.max(0, compiles.getOrDefault(entry.getKey(), 0L)
              - before.compiles.getOrDefault(entry.getKey(), 0L));
        }
      }
      return new Usage(totalNanos, totalCompiles, !nanos.isEmpty());
    }
  }

  /** Compile time and methods compiled over an interval, all processes together; readable false when none was. */
  record Usage(long nanos, long compiles, boolean readable) {

    /** The compile time as a share of the machine's CPU time over {@code wallNanos} (may exceed 1 when starved). */
    double shareOf(long wallNanos, int cores) {
      return wallNanos <= 0 || cores <= 0 ? Double.NaN : (double) nanos / ((double) wallNanos * cores);
    }
  }

  private JitTime() {
  }

  /** A snapshot of the named processes (name → pid); a process whose counters cannot be read is left out. */
  static Snapshot take(Map<String, Long> pids) {
    Path directory = Path.of(System.getProperty("java.io.tmpdir"), "hsperfdata_" + System.getProperty("user.name"));
    Map<String, Long> nanos = new TreeMap<>();
    Map<String, Long> compiles = new TreeMap<>();
    pids.forEach((name, pid) -> {
      Map<String, Long> counters = read(directory.resolve(String.valueOf(pid)));
      Long frequency = counters.get(FREQUENCY);
      Long standard = counters.get(STANDARD_TIME);
      if (frequency != null && frequency > 0 && standard != null) {
        long ticks = standard + counters.getOrDefault(OSR_TIME, 0L);
        nanos.put(name, (long) (ticks * (1e9 / frequency)));
        compiles.put(name, counters.getOrDefault(COMPILES, 0L));
      }
    });
    return new Snapshot(nanos, compiles);
  }

  /** The scalar long counters of one hsperfdata file; empty when it is missing or not in the expected format. */
  static Map<String, Long> read(Path file) {
    try {
      return parse(ByteBuffer.wrap(Files.readAllBytes(file)));
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
  }

  /**
   * Parses HotSpot's performance data layout (perfMemory.hpp, version 2): a 32-byte prologue (magic, byte order,
   * version, accessible flag, used and overflow sizes, modification time, offset and number of the entries), then the
   * entries, each {@code entry_length, name_offset, vector_length, data_type, flags, data_units, data_variability,
   * data_offset} followed by its NUL-terminated name and its data. Only scalar longs are kept.
   */
  static Map<String, Long> parse(ByteBuffer buffer) {
    if (buffer.remaining() < PROLOGUE_BYTES || buffer.order(ByteOrder.BIG_ENDIAN).getInt(0) != MAGIC) {
      return Map.of();
    }
    buffer.order(buffer.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    int entryOffset = buffer.getInt(24);
    int entries = buffer.getInt(28);
    Map<String, Long> counters = new HashMap<>();
    int at = entryOffset;
    for (int i = 0; i < entries && at >= PROLOGUE_BYTES && at + 20 <= buffer.limit(); i++) {
      int length = buffer.getInt(at);
      if (length <= 0) {
        break;
      }
      int nameOffset = buffer.getInt(at + 4);
      int vectorLength = buffer.getInt(at + 8);
      byte type = buffer.get(at + 12);
      int dataOffset = buffer.getInt(at + 16);
      if (type == LONG_TYPE && vectorLength == 0 && at + dataOffset + Long.BYTES <= buffer.limit()) {
        counters.put(name(buffer, at + nameOffset, at + dataOffset), buffer.getLong(at + dataOffset));
      }
      at += length;
    }
    return counters;
  }

  private static String name(ByteBuffer buffer, int from, int limit) {
    int end = from;
    while (end < limit && buffer.get(end) != 0) {
      end++;
    }
    byte[] bytes = new byte[end - from];
    buffer.get(from, bytes);
    return new String(bytes, StandardCharsets.US_ASCII);
  }
}
