package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** Where the time goes: the CPU of each process per accepted payment and the JIT's compile time, step by step. */
final class CpuReport {

  /** A step whose JIT compile time reached this share of the machine is flagged as not settled. */
  static final double UNSETTLED_JIT_SHARE = 0.10;

  private CpuReport() {
  }

  /**
   * CPU milliseconds per accepted payment of each process, one column per step: where a payment's time goes. The
   * processes are listed by their share in the last step, the largest first; "machine busy" is the share of both
   * cores' time that was not idle (every process on the machine, the platform's or not).
   */
  static void printCpu(List<Step> steps, List<ProcessCpu.Usage> usages) {
    if (steps.isEmpty() || usages.size() != steps.size()) {
      return;
    }
    StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "    %-28s", "process"));
    steps.forEach(step -> header.append(String.format(Locale.ROOT, " %9s", step.label)));
    say("%s", header);
    ProcessCpu.Usage last = usages.getLast();
    long lastAccepted = steps.getLast().accepted.sum();
    List<String> names = usages.stream().flatMap(u -> u.ticks().keySet().stream()).distinct()
        .sorted(Comparator.comparingDouble((String name) -> {
          double ms = last.millisPer(name, lastAccepted);
          return Double.isNaN(ms) ? 0 : -ms;
        }).thenComparing(Comparator.naturalOrder()))
        .toList();
    for (String name : names) {
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "    %-28s", name));
      for (int i = 0; i < steps.size(); i++) {
        long accepted = steps.get(i).accepted.sum();
        line.append(String.format(Locale.ROOT, " %9s", cpuMs(usages.get(i).millisPer(name, accepted))));
      }
      say("%s", line);
    }
    StringBuilder total = new StringBuilder(String.format(Locale.ROOT, "    %-28s", "total"));
    StringBuilder busy = new StringBuilder(String.format(Locale.ROOT, "    %-28s", "machine busy"));
    for (int i = 0; i < steps.size(); i++) {
      long accepted = steps.get(i).accepted.sum();
      total.append(String.format(Locale.ROOT, " %9s", cpuMs(usages.get(i).totalMillisPer(accepted))));
      double share = usages.get(i).machineBusyShare();
      busy.append(String.format(Locale.ROOT, " %9s", Double.isNaN(share) ? "-"
          : String.format(Locale.ROOT, "%.0f%%", share * 100)));
    }
    say("%s", total);
    say("%s", busy);
  }

  /**
   * The JIT's compile time in each step, all the platform's JVMs together, and a warning for steps where it was a
   * large share of the machine: those figures measured compilers as much as the platform.
   */
  static void printJit(List<Step> steps, List<JitTime.Usage> usages, int cores) {
    if (steps.isEmpty() || usages.size() != steps.size()) {
      return;
    }
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "    %-28s", "JIT compiling (HotSpot)"));
    List<String> unsettled = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      JitTime.Usage jit = usages.get(i);
      Step step = steps.get(i);
      double share = jit.shareOf(TimeUnit.MILLISECONDS.toNanos(step.drainedAtMillis - step.startedAtMillis), cores);
      line.append(String.format(Locale.ROOT, " %9s", jit.readable()
          ? String.format(Locale.ROOT, "%.0f%%", share * 100) : "-"));
      if (jit.readable() && share >= UNSETTLED_JIT_SHARE) {
        unsettled.add(step.label);
      }
    }
    say("%s   (compile time of all its JVMs, as a share of the machine's time)", line);
    if (!unsettled.isEmpty()) {
      say("    the JIT was still compiling for %.0f%% or more of the machine's time in %s: those figures include it;"
          + " a longer warm-up gives steadier ones", UNSETTLED_JIT_SHARE * 100, String.join(", ", unsettled));
    }
  }

  /** How a warm-up slice's compile time is shown: methods compiled and the share of the machine's time. */
  static String jitShare(JitTime.Usage jit, double share) {
    return jit.readable()
        ? String.format(Locale.ROOT, "JIT: %d methods compiled, %.0f%% of the machine", jit.compiles(), share * 100)
        : "JIT: counters not readable";
  }

  private static String cpuMs(double millis) {
    return Double.isNaN(millis) ? "-" : String.format(Locale.ROOT, "%.2f", millis);
  }
}
