package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.mib;
import static dev.lipa.infra.bench.Report.outcomeToCallback;
import static dev.lipa.infra.bench.Report.say;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/** The run against the platform's targets: capacity, the ratio to the reference pipeline, latency, memory. */
final class Targets {

  private static final long GIB = 1024L * 1024 * 1024;

  private Targets() {
  }

  /** The highest accepted rate of a step the system kept up with (0 when it kept up with none). */
  static double sustainedCapacity(List<Step> steps) {
    return steps.stream().filter(Step::sustained).mapToDouble(Step::acceptedPerSecond).max()
        .orElse(0);
  }

  /** The highest accepted rate of any step: the throughput compared with the reference's. */
  static double peak(List<Step> steps) {
    return steps.stream().mapToDouble(Step::acceptedPerSecond).max().orElse(0);
  }

  static boolean saturated(List<Step> steps) {
    return steps.stream().anyMatch(s -> !s.sustained());
  }

  static void printRatio(List<Step> platform, List<Step> reference) {
    say("  %-9s %12s %12s %7s", "rate", "platform/s", "reference/s", "ratio");
    for (Step p : platform) {
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

  static void printTargets(List<Step> steps, List<Step> reference, long lost, long peakMemory,
      String backend, CallbackCounter callbacks, OutcomeWatcher outcomes, Map<String, Integer> acceptedStep) {
    if (!reference.isEmpty()) {
      double ratio = peak(reference) == 0 ? 0 : peak(steps) / peak(reference);
      say("  %-58s %s", "platform >= 0.5 x reference (peak accepted/s)",
          verdict(ratio >= 0.5, String.format(Locale.ROOT, "%.2f", ratio)));
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
