package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.mib;
import static dev.lipa.infra.bench.Report.say;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The run against the performance targets of this 2-core machine: the ratio to the reference payment, the sustained
 * rate with its outcome-to-callback latency, the platform's CPU per payment, and its memory. Each is judged on
 * sustained steps (at least 99% accepted, p99 under 1 s), never on peaks.
 */
final class Targets {

  static final double MEMORY_BACKEND_RATE = 1_200;
  static final double ON_DISK_RATE = 800;
  static final double OUTCOME_TO_CALLBACK_P99_MILLIS = 1_000;
  static final double CPU_MILLIS_PER_PAYMENT = 1.2;
  static final long ON_DISK_PEAK_BYTES = 2_560L * 1024 * 1024;

  private Targets() {
  }

  /** Prints the verdicts; {@code reference} is null when the reference payment did not run. */
  static void printTargets(SideFigures platform, SideFigures reference, long lost, long peakMemory, String backend) {
    judge(platform, reference, lost, peakMemory, backend).forEach(line -> say("  %s", line));
  }

  /**
   * One line per target: what it asks, then {@code holds}, {@code MISSED} or why it was not judged, with the figure.
   * The rate target is the memory backend's unless the backend is the on-disk one ({@code h2 ...}).
   */
  static List<String> judge(SideFigures platform, SideFigures reference, long lost, long peakMemory, String backend) {
    List<String> lines = new ArrayList<>();
    if (reference != null) {
      double ratio = SideFigures.ratio(platform.sustainedRate(), reference.sustainedRate());
      lines.add(line("platform >= " + Comparison.TARGET_RATIO + " x reference payment (sustained rates)",
          Double.isNaN(ratio) ? "not judged: the reference sustained no step"
              : verdict(ratio >= Comparison.TARGET_RATIO, String.format(Locale.ROOT, "%.2f (%.0f/s against %.0f/s)",
                  ratio, platform.sustainedRate(), reference.sustainedRate()))));
    }
    boolean onDisk = backend.startsWith("h2");
    double rateTarget = onDisk ? ON_DISK_RATE : MEMORY_BACKEND_RATE;
    SideFigures.StepFigures best = platform.steps().stream().filter(SideFigures.StepFigures::sustained)
        .filter(step -> step.outcomeToCallbackP99() <= OUTCOME_TO_CALLBACK_P99_MILLIS)
        .max(Comparator.comparingDouble(SideFigures.StepFigures::acceptedPerSecond)).orElse(null);
    double rate = best == null ? 0 : best.acceptedPerSecond();
    lines.add(line(String.format(Locale.ROOT, ">= %.0f/s sustained on the %s backend, outcome -> callback p99 <= 1 s,"
            + " 0 lost", rateTarget, onDisk ? "on-disk" : "memory"),
        verdict(rate >= rateTarget && lost == 0, String.format(Locale.ROOT, "%.0f/s%s, %d lost", rate,
            best == null ? " (no step sustained with callbacks within 1 s)"
                : String.format(Locale.ROOT, " (outcome -> callback p99 %.0f ms)", best.outcomeToCallbackP99()),
            lost))));
    SideFigures.StepFigures busiest = platform.steps().stream().filter(SideFigures.StepFigures::sustained)
        .filter(step -> !Double.isNaN(step.cpuMillisPerPayment()))
        .max(Comparator.comparingDouble(SideFigures.StepFigures::acceptedPerSecond)).orElse(null);
    lines.add(line("<= " + CPU_MILLIS_PER_PAYMENT + " ms of platform CPU per payment (at the highest sustained step)",
        busiest == null ? "not judged: no sustained step"
            : verdict(busiest.cpuMillisPerPayment() <= CPU_MILLIS_PER_PAYMENT, String.format(Locale.ROOT,
                "%.2f ms at %s", busiest.cpuMillisPerPayment(), busiest.label()))));
    lines.add(line("peak PSS of the platform <= 2.5 GiB on the on-disk backend",
        onDisk ? verdict(peakMemory <= ON_DISK_PEAK_BYTES, "peak " + mib(peakMemory))
            : "not judged on " + backend + " (it holds every document): peak " + mib(peakMemory)));
    return List.copyOf(lines);
  }

  private static String line(String target, String outcome) {
    return String.format(Locale.ROOT, "%-78s %s", target, outcome);
  }

  private static String verdict(boolean held, String figure) {
    return (held ? "holds   " : "MISSED  ") + figure;
  }
}
