package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/** HotSpot's compile counters: this JVM's own, read from its hsperfdata file, and the parser on built files. */
class JitTimeTests {

  @Test
  void readsThisJvmsCompileTimeAndSeesItGrowWhenNewCodeGetsHot() {
    long pid = ProcessHandle.current().pid();
    JitTime.Snapshot before = JitTime.take(Map.of("me", pid, "gone", Long.MAX_VALUE));
    assertThat(before.nanos()).containsOnlyKeys("me");
    assertThat(before.nanos().get("me")).isPositive();
    assertThat(before.compiles().get("me")).isPositive();

    // code this JVM has never run, made hot until HotSpot compiles more methods (bounded, so a failure is a failure)
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    JitTime.Usage usage = JitTime.take(Map.of("me", pid)).since(before);
    long sink = 0;
    for (int round = 0; usage.compiles() == 0 && System.nanoTime() < deadline; round++) {
      LongUnaryOperator hot = round % 2 == 0 ? x -> Long.rotateLeft(x * 31, 7) ^ x : x -> Long.reverse(x) + 17 * x;
      for (int i = 0; i < 200_000; i++) {
        sink += hot.applyAsLong(sink + i);
      }
      usage = JitTime.take(Map.of("me", pid)).since(before);
    }

    assertThat(usage.readable()).isTrue();
    assertThat(usage.compiles()).as("methods compiled meanwhile (sink %d)", sink).isPositive();
    assertThat(usage.nanos()).isPositive();
  }

  @Test
  void parsesScalarLongsInEitherByteOrderAndSkipsOtherEntries() {
    for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
      byte[] file = perfData(order,
          new Entry("sun.os.hrt.frequency", 'J', 0, 1_000_000_000L),
          new Entry("sun.ci.lastMethod", 'B', 16, 0),
          new Entry("sun.ci.standardTime", 'J', 0, 4_500_000_000L),
          new Entry("sun.ci.osrTime", 'J', 0, 500_000_000L));

      Map<String, Long> counters = JitTime.parse(ByteBuffer.wrap(file));

      assertThat(counters).as(order.toString()).containsOnly(Map.entry("sun.os.hrt.frequency", 1_000_000_000L),
          Map.entry("sun.ci.standardTime", 4_500_000_000L), Map.entry("sun.ci.osrTime", 500_000_000L));
    }
  }

  @Test
  void readsNothingFromAFileThatIsNotPerformanceData() {
    assertThat(JitTime.parse(ByteBuffer.wrap("not hsperfdata at all, just text".getBytes(StandardCharsets.UTF_8))))
        .isEmpty();
    assertThat(JitTime.parse(ByteBuffer.allocate(8))).isEmpty();
  }

  @Test
  void sumsTheProcessesPresentAtBothEndsAndSharesTheMachinesTime() {
    JitTime.Snapshot before = new JitTime.Snapshot(Map.of("a", 1_000L, "b", 5_000L), Map.of("a", 10L, "b", 50L));
    JitTime.Snapshot after = new JitTime.Snapshot(Map.of("a", 3_000L, "b", 9_000L, "new", 99_999L),
        Map.of("a", 12L, "b", 53L, "new", 7L));

    JitTime.Usage usage = after.since(before);

    assertThat(usage.nanos()).isEqualTo(2_000 + 4_000);
    assertThat(usage.compiles()).isEqualTo(2 + 3);
    // 6 µs of compiling over 3 µs of wall time on 2 cores: the compilers had the whole machine
    assertThat(usage.shareOf(3_000, 2)).isEqualTo(1.0);
  }

  private record Entry(String name, char type, int vectorLength, long value) {
  }

  /** A performance data file as HotSpot lays it out: the 32-byte prologue, then the entries. */
  private static byte[] perfData(ByteOrder order, Entry... entries) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (Entry entry : entries) {
      byte[] name = (entry.name() + "\0").getBytes(StandardCharsets.US_ASCII);
      int nameOffset = 20;
      int dataOffset = (nameOffset + name.length + 7) / 8 * 8;
      int dataBytes = entry.vectorLength() > 0 ? entry.vectorLength() : Long.BYTES;
      ByteBuffer buffer = ByteBuffer.allocate(dataOffset + dataBytes).order(order);
      buffer.putInt(buffer.capacity()).putInt(nameOffset).putInt(entry.vectorLength())
          .put((byte) entry.type()).put((byte) 0).put((byte) 1).put((byte) 3).putInt(dataOffset);
      buffer.put(name);
      if (entry.vectorLength() == 0) {
        buffer.putLong(dataOffset, entry.value());
      }
      body.writeBytes(buffer.array());
    }
    ByteBuffer prologue = ByteBuffer.allocate(32).order(order);
    prologue.order(ByteOrder.BIG_ENDIAN).putInt(0xcafec0c0).order(order);
    prologue.put((byte) (order == ByteOrder.BIG_ENDIAN ? 0 : 1)).put((byte) 2).put((byte) 0).put((byte) 1);
    prologue.putInt(32 + body.size()).putInt(0).putLong(0).putInt(32).putInt(entries.length);
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    file.writeBytes(prologue.array());
    file.writeBytes(body.toByteArray());
    return file.toByteArray();
  }
}
