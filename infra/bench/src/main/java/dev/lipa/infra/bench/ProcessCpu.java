package dev.lipa.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * CPU time each process used, read from {@code /proc/<pid>/stat} (user + system time of all its threads), and how
 * busy the whole machine was ({@code /proc/stat}). Linux counts both in USER_HZ ticks, 100 per second on every
 * mainstream architecture; the figures are converted with that.
 *
 * <p>Where the time goes is what the bench divides it by: CPU milliseconds per accepted payment, per process, over
 * a step. The step's wall time is what is measured, so the work a step's pushes cause later (their outcomes come
 * seconds after the answer, their callbacks after that) lands partly in the next step; at a steady rate the work of
 * earlier pushes arriving in the step balances it.
 */
final class ProcessCpu {

  static final long TICKS_PER_SECOND = 100;

  /** CPU ticks per process name, and the machine's busy and total ticks, at one moment. */
  record Snapshot(Map<String, Long> perProcess, long machineBusy, long machineTotal, long atNanos) {

    /** What happened between {@code before} and this snapshot; processes absent from either are left out. */
    Usage since(Snapshot before) {
      Map<String, Long> ticks = new LinkedHashMap<>();
      perProcess.forEach((name, t) -> {
        Long was = before.perProcess.get(name);
        if (was != null && t >= was) {
          ticks.put(name, t - was);
        }
      });
      return new Usage(ticks, machineBusy - before.machineBusy, machineTotal - before.machineTotal);
    }
  }

  /** Ticks used per process over an interval, and the machine's busy share of it. */
  record Usage(Map<String, Long> ticks, long machineBusy, long machineTotal) {

    double millisPer(String process, long payments) {
      Long t = ticks.get(process);
      return t == null || payments == 0 ? Double.NaN : t * 1000.0 / TICKS_PER_SECOND / payments;
    }

    /** CPU milliseconds per payment of the processes whose names {@code processes} accepts, together. */
    double millisPer(Predicate<String> processes, long payments) {
      return payments == 0 ? Double.NaN
          : ticks.entrySet().stream().filter(e -> processes.test(e.getKey())).mapToLong(Map.Entry::getValue).sum()
              * 1000.0 / TICKS_PER_SECOND / payments;
    }

    double totalMillisPer(long payments) {
      return payments == 0 ? Double.NaN
          : ticks.values().stream().mapToLong(Long::longValue).sum() * 1000.0 / TICKS_PER_SECOND / payments;
    }

    /** The share of the machine's CPU time that was not idle (0..1), all processes, not only the platform's. */
    double machineBusyShare() {
      return machineTotal <= 0 ? Double.NaN : (double) machineBusy / machineTotal;
    }
  }

  private ProcessCpu() {
  }

  /** A snapshot of the named processes (name → pid); a process that is gone is left out. */
  static Snapshot take(Map<String, Long> pids) {
    Map<String, Long> perProcess = new TreeMap<>();
    pids.forEach((name, pid) -> {
      Long ticks = ticksOf(pid);
      if (ticks != null) {
        perProcess.put(name, ticks);
      }
    });
    long[] machine = machineTicks();
    return new Snapshot(perProcess, machine[0], machine[1], System.nanoTime());
  }

  /** utime + stime of a process (all its threads), in ticks; null when it cannot be read. */
  static Long ticksOf(long pid) {
    try {
      return parseStat(Files.readString(Path.of("/proc", String.valueOf(pid), "stat")));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Fields 14 (utime) and 15 (stime) of a {@code /proc/<pid>/stat} line. The second field, the command name in
   * parentheses, may itself hold spaces and parentheses, so the count starts after the last ')'.
   */
  static long parseStat(String line) {
    String[] fields = line.substring(line.lastIndexOf(')') + 2).strip().split("\\s+");
    // after the name, fields[0] is field 3 (state): utime (14) is fields[11], stime (15) fields[12]
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** {busy, total} ticks of all CPUs since boot, from the first line of /proc/stat; zeros when unreadable. */
  static long[] machineTicks() {
    try (var lines = Files.lines(Path.of("/proc/stat"))) {
      return lines.findFirst().map(ProcessCpu::parseMachine).orElse(new long[2]);
    } catch (IOException | RuntimeException e) {
      return new long[2];
    }
  }

  /** "cpu  user nice system idle iowait irq softirq steal ...": idle and iowait are not busy. */
  static long[] parseMachine(String line) {
    String[] fields = line.strip().split("\\s+");
    long total = 0;
    long idle = 0;
    for (int i = 1; i < fields.length && i <= 8; i++) {
      long value = Long.parseLong(fields[i]);
      total += value;
      if (i == 4 || i == 5) {
        idle += value;
      }
    }
    return new long[] {total - idle, total};
  }
}
