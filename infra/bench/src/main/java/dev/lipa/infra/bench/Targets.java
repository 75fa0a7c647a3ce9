package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.mib;
import static dev.lipa.infra.bench.Report.outcomeToCallback;
import static dev.lipa.infra.bench.Report.say;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/** The run against the platform's targets: capacity, the ratio to the reference payment, latency, memory. */
final class Targets {

  private static final long GIB = 1024L * 1024 * 1024;

  private Targets() {
  }

  /** The highest accepted rate of a step the system kept up with (0 when it kept up with none). */
  static double sustainedCapacity(List<Step> steps) {
    return steps.stream().filter(Step::sustained).mapToDouble(Step::acceptedPerSecond).max()
        .orElse(0);
  }

  /**
   * The targets, for this run; {@code reference} is null when the reference payment did not run. The ratio is of the
   * sustained rates (issue 18: judged on sustained rates, not peaks).
   */
  static void printTargets(List<Step> steps, SideFigures reference, long lost, long peakMemory,
      String backend, CallbackCounter callbacks, OutcomeWatcher outcomes, Map<String, Integer> acceptedStep) {
    if (reference != null) {
      double ratio = SideFigures.ratio(sustainedCapacity(steps), reference.sustainedRate());
      say("  %-58s %s", "platform >= " + Comparison.TARGET_RATIO + " x reference payment (sustained rates)",
          Double.isNaN(ratio) ? "not judged: the reference sustained no step"
              : verdict(ratio >= Comparison.TARGET_RATIO, String.format(Locale.ROOT, "%.2f", ratio)));
    }
    double capacity = sustainedCapacity(steps);
    say("  %-58s %s", ">= 2000 accepted/s sustained (memory backend; on-disk reported)",
        verdict(capacity >= 2000, String.format(Locale.ROOT, "%.0f/s on %s", capacity, backend)));
    Optional<Step> at1000 = steps.stream().filter(s -> s.rate == 1000).findFirst();
    if (at1000.isPresent()) {
      Step step = at1000.get();
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
