package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Bench.say;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/** The bench's printed figures. */
final class Report {

  static final String STEP_HEADER = String.format(Locale.ROOT, "  %-9s %9s %10s %8s %8s %9s %11s %18s  %s",
      "step", "offered/s", "accepted/s", "p50 ms", "p99 ms", "p99.9 ms", "callbacks/s", "outcome→cb p50/p99",
      "errors");

  /** A step whose JIT compile time reached this share of the machine is flagged as not settled. */
  static final double UNSETTLED_JIT_SHARE = 0.10;
  private static final long GIB = 1024L * 1024 * 1024;

  private Report() {
  }

  static String rate(double rate) {
    return rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate);
  }

  static String stepLine(OpenLoad.Step step, CallbackCounter callbacks, OutcomeWatcher outcomes,
      Map<String, Integer> acceptedStep) {
    Histogram toCallback = outcomeToCallback(step.index, callbacks, outcomes, acceptedStep);
    String outcomeToCallback = toCallback.getTotalCount() == 0 ? "-"
        : String.format(Locale.ROOT, "%d / %d ms", toCallback.getValueAtPercentile(50),
            toCallback.getValueAtPercentile(99));
    return String.format(Locale.ROOT, "  %-9s %9.0f %10.0f %8s %8s %9s %11.0f %18s  %s", step.label,
        step.offeredPerSecond(), step.acceptedPerSecond(), ms(step.millis(50)), ms(step.millis(99)),
        ms(step.millis(99.9)), callbacksPerSecond(step, callbacks), outcomeToCallback, step.errorSummary());
  }

  static String referenceLine(OpenLoad.Step step) {
    return String.format(Locale.ROOT, "  %-9s %9.0f %10.0f %8s %8s %9s %11s %18s  %s", step.label,
        step.offeredPerSecond(), step.acceptedPerSecond(), ms(step.millis(50)), ms(step.millis(99)),
        ms(step.millis(99.9)), "-", "-", step.errorSummary());
  }

  private static String ms(double millis) {
    if (Double.isNaN(millis)) {
      return "-";
    }
    return millis < 10 ? String.format(Locale.ROOT, "%.1f", millis) : String.format(Locale.ROOT, "%.0f", millis);
  }

  /** First callbacks received while the step's load ran, per second. */
  static double callbacksPerSecond(OpenLoad.Step step, CallbackCounter callbacks) {
    long n = callbacks.all().values().stream()
        .filter(r -> r.firstAtMillis >= step.startedAtMillis && r.firstAtMillis < step.endedAtMillis).count();
    return n / step.seconds();
  }

  /** Rail outcome applied ({@code occurredAt} of stk.succeeded/failed) to first callback, for the step's pushes. */
  static Histogram outcomeToCallback(int stepIndex, CallbackCounter callbacks, OutcomeWatcher outcomes,
      Map<String, Integer> acceptedStep) {
    Histogram histogram = new Histogram(600_000, 3);
    acceptedStep.forEach((requestId, index) -> {
      if (index != stepIndex) {
        return;
      }
      CallbackCounter.Received received = callbacks.get(requestId);
      Long outcomeAt = outcomes.outcomeAt(requestId);
      if (received != null && outcomeAt != null) {
        histogram.recordValue(Math.min(600_000, Math.max(0, received.firstAtMillis - outcomeAt)));
      }
    });
    return histogram;
  }

  static String perPayment(long count, long payments) {
    return payments == 0 ? count + " (no payment accepted)"
        : String.format(Locale.ROOT, "%.2f", (double) count / payments);
  }

  static void printWrites(PlatformProbe.StoreWrites writes, long payments, String excludedDatabase) {
    if (!writes.available()) {
      say("  store writes: the store does not report write counters (serverStatus has no lipaWrites/opcounters)");
      return;
    }
    long total = writes.perDatabase().entrySet().stream().filter(e -> !e.getKey().equals(excludedDatabase))
        .mapToLong(Map.Entry::getValue).sum();
    say("  store writes (insert/update/delete/findAndModify statements): %d = %s per payment", total,
        perPayment(total, payments));
    writes.perDatabase().forEach((db, n) -> {
      if (!db.equals(excludedDatabase)) {
        say("    %-28s %8d  %s per payment", db, n, perPayment(n, payments));
      }
    });
  }

  static void printRecords(Map<String, Long> records, long payments, String excludedTopic) {
    long total = records.entrySet().stream().filter(e -> !e.getKey().equals(excludedTopic))
        .mapToLong(Map.Entry::getValue).sum();
    say("  Kafka records (end offsets of the platform's topics): %d = %s per payment", total,
        perPayment(total, payments));
    records.forEach((topic, n) -> {
      if (!topic.equals(excludedTopic)) {
        say("    %-28s %8d  %s per payment", topic, n, perPayment(n, payments));
      }
    });
  }

  static String mib(Long bytes) {
    return bytes == null ? "?" : String.format(Locale.ROOT, "%.0f MiB", bytes / 1024.0 / 1024.0);
  }

  static void printMemory(Map<String, Long> before, Map<String, Long> after, long peak) {
    long sumBefore = before.values().stream().mapToLong(Long::longValue).sum();
    long sumAfter = after.values().stream().mapToLong(Long::longValue).sum();
    after.forEach((name, bytes) -> say("    %-28s %9s -> %s", name, mib(before.get(name)), mib(bytes)));
    say("  total: %s before, %s after, peak %s (sampled every 2 s)", mib(sumBefore), mib(sumAfter), mib(peak));
  }

  /**
   * CPU milliseconds per accepted payment of each process, one column per step: where a payment's time goes. The
   * processes are listed by their share in the last step, the largest first; "machine busy" is the share of both
   * cores' time that was not idle (every process on the machine, the platform's or not).
   */
  static void printCpu(List<OpenLoad.Step> steps, List<ProcessCpu.Usage> usages) {
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
  static void printJit(List<OpenLoad.Step> steps, List<JitTime.Usage> usages, int cores) {
    if (steps.isEmpty() || usages.size() != steps.size()) {
      return;
    }
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "    %-28s", "JIT compiling (HotSpot)"));
    List<String> unsettled = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      JitTime.Usage jit = usages.get(i);
      OpenLoad.Step step = steps.get(i);
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

  /** The highest accepted rate of a step the system kept up with (0 when it kept up with none). */
  static double sustainedCapacity(List<OpenLoad.Step> steps) {
    return steps.stream().filter(OpenLoad.Step::sustained).mapToDouble(OpenLoad.Step::acceptedPerSecond).max()
        .orElse(0);
  }

  /** The highest accepted rate of any step: the throughput compared with the reference's. */
  static double peak(List<OpenLoad.Step> steps) {
    return steps.stream().mapToDouble(OpenLoad.Step::acceptedPerSecond).max().orElse(0);
  }

  static boolean saturated(List<OpenLoad.Step> steps) {
    return steps.stream().anyMatch(s -> !s.sustained());
  }

  static void printRatio(List<OpenLoad.Step> platform, List<OpenLoad.Step> reference) {
    say("  %-9s %12s %12s %7s", "rate", "platform/s", "reference/s", "ratio");
    for (OpenLoad.Step p : platform) {
      reference.stream().filter(r -> r.rate == p.rate).findFirst().ifPresent(r -> say("  %-9s %12.0f %12.0f %7.2f",
          p.label, p.acceptedPerSecond(), r.acceptedPerSecond(),
          r.acceptedPerSecond() == 0 ? 0 : p.acceptedPerSecond() / r.acceptedPerSecond()));
    }
    double platformPeak = peak(platform);
    double referencePeak = peak(reference);
    say("  peak accepted/s: platform %.0f, reference %.0f%s -> ratio %.2f%s", platformPeak, referencePeak,
        saturated(reference) ? "" : " (not saturated: a higher --reference-steps rate would show more)",
        referencePeak == 0 ? 0 : platformPeak / referencePeak, saturated(reference) ? "" : " (an upper bound)");
    say("  sustained (highest step with >= 99%% accepted and p99 < 1 s): platform %.0f/s, reference %.0f/s",
        sustainedCapacity(platform), sustainedCapacity(reference));
  }

  static void printTargets(List<OpenLoad.Step> steps, List<OpenLoad.Step> reference, long lost, long peakMemory,
      String backend, CallbackCounter callbacks, OutcomeWatcher outcomes, Map<String, Integer> acceptedStep) {
    if (!reference.isEmpty()) {
      double ratio = peak(reference) == 0 ? 0 : peak(steps) / peak(reference);
      say("  %-58s %s", "platform >= 0.5 x reference (peak accepted/s)",
          verdict(ratio >= 0.5, String.format(Locale.ROOT, "%.2f", ratio)));
    }
    double capacity = sustainedCapacity(steps);
    say("  %-58s %s", ">= 2000 accepted/s sustained (memory backend; on-disk reported)",
        verdict(capacity >= 2000, String.format(Locale.ROOT, "%.0f/s on %s", capacity, backend)));
    Optional<OpenLoad.Step> at1000 = steps.stream().filter(s -> s.rate == 1000).findFirst();
    if (at1000.isPresent()) {
      OpenLoad.Step step = at1000.get();
      say("  %-58s %s", "p99 <= 50 ms at 1000/s", verdict(step.millis(99) <= 50,
          String.format(Locale.ROOT, "%.1f ms (%d errors)", step.millis(99), step.errorCount())));
      Histogram toCallback = outcomeToCallback(step.index, callbacks, outcomes, acceptedStep);
      long p99 = toCallback.getTotalCount() == 0 ? -1 : toCallback.getValueAtPercentile(99);
      say("  %-58s %s", "outcome -> callback p99 <= 1 s at 1000/s, zero lost",
          verdict(p99 >= 0 && p99 <= 1000 && lost == 0, String.format(Locale.ROOT, "p99 %d ms, %d lost", p99, lost)));
    } else {
      say("  %-58s %s", "p99 and outcome -> callback at 1000/s", "not measured (no 1000/s step)");
    }
    say("  %-58s %s", "whole local platform <= 3 GiB resident",
        verdict(peakMemory <= 3 * GIB, "peak " + mib(peakMemory) + " (PSS)"));
  }

  private static String verdict(boolean held, String figure) {
    return (held ? "holds   " : "MISSED  ") + figure;
  }
}
