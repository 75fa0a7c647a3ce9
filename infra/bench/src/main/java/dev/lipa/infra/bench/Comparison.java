package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * The platform beside the reference payment: per step (by offered rate) accepted/s, whether it was sustained, latency,
 * outcome → callback p99 and CPU per payment; per payment the store writes and Kafka records of each side's own
 * databases and topics; lost and duplicated callbacks; and the ratio of the sustained rates, platform ÷ reference,
 * which the target judges (≥ 0.5). For one run as it was measured, and over repeated runs as medians with
 * their spread.
 */
final class Comparison {

  /** The target for the ratio of sustained rates. */
  static final double TARGET_RATIO = 0.5;
  private static final String ROW = "  %-9s %-10s %18s %6s %30s %18s %16s";

  private Comparison() {
  }

  /** The side-by-side table of one run. */
  static void printRun(String title, SideFigures platform, SideFigures reference) {
    say("");
    say("== %s", title);
    say(ROW, "rate", "", "accepted/s", "sust.", "p50 / p99 / p99.9 ms", "outcome→cb p99 ms", "CPU ms/payment");
    for (double rate : rates(List.of(platform), List.of(reference))) {
      row(rate, "platform", platform.at(rate));
      row(rate, "reference", reference.at(rate));
    }
    say("  %-20s platform %s writes, %s records   reference %s writes, %s records", "work per payment",
        Spread.decimals(platform.writesPerPayment()), Spread.decimals(platform.recordsPerPayment()),
        Spread.decimals(reference.writesPerPayment()), Spread.decimals(reference.recordsPerPayment()));
    say("  %-20s platform %d lost, %d duplicated   reference %d lost, %d duplicated", "callbacks", platform.lost(),
        platform.duplicated(), reference.lost(), reference.duplicated());
    double ratio = SideFigures.ratio(platform.sustainedRate(), reference.sustainedRate());
    say("  %-20s platform %s/s, reference %s/s -> platform / reference %s %s", "sustained rate",
        Spread.number(platform.sustainedRate()), Spread.number(reference.sustainedRate()), Spread.decimals(ratio),
        verdict(ratio));
    if (reference.steps().stream().allMatch(SideFigures.StepFigures::sustained)) {
      say("  the reference sustained every step: a higher --reference-steps rate would show more, and the ratio is"
          + " an upper bound");
    }
  }

  private static void row(double rate, String side, SideFigures.StepFigures step) {
    if (step == null) {
      say("  %-9s %-10s %18s", Report.rate(rate) + "/s", side, "(not run)");
      return;
    }
    say(ROW, step.label(), side, Spread.number(step.acceptedPerSecond()), step.sustained() ? "yes" : "no",
        Spread.number(step.p50()) + " / " + Spread.number(step.p99()) + " / " + Spread.number(step.p999()),
        Spread.number(step.outcomeToCallbackP99()), Spread.decimals(step.cpuMillisPerPayment()));
  }

  /**
   * The medians of repeated runs, with their spread (min–max), per step and side; then the work per payment, the
   * callbacks, the sustained rates and their ratio (the ratio of the median sustained rates, and the spread of each
   * run's ratio). {@code reference} is empty when the reference did not run.
   */
  static void printSummary(List<SideFigures> platform, List<SideFigures> reference) {
    say("");
    say("== medians of %d runs, with the spread (min–max) of each figure", platform.size());
    say("  %-9s %-10s %22s %6s %30s %30s %30s %22s %20s", "rate", "", "accepted/s", "sust.", "p50 ms", "p99 ms",
        "p99.9 ms", "outcome→cb p99 ms", "CPU ms/payment");
    for (double rate : rates(platform, reference)) {
      summaryRow(rate, "platform", platform);
      if (!reference.isEmpty()) {
        summaryRow(rate, "reference", reference);
      }
    }
    summaryLine("store writes/payment", platform, reference, SideFigures::writesPerPayment, Spread::decimals);
    summaryLine("Kafka records/payment", platform, reference, SideFigures::recordsPerPayment, Spread::decimals);
    summaryLine("lost callbacks", platform, reference, side -> side.lost(), Spread::count);
    summaryLine("duplicated callbacks", platform, reference, side -> side.duplicated(), Spread::count);
    summaryLine("sustained rate /s", platform, reference, SideFigures::sustainedRate, Spread::number);
    if (reference.isEmpty()) {
      return;
    }
    Spread platformRate = spread(platform, SideFigures::sustainedRate);
    Spread referenceRate = spread(reference, SideFigures::sustainedRate);
    double ratioOfMedians = SideFigures.ratio(platformRate.median(), referenceRate.median());
    Spread ratios = Spread.of(IntStream.range(0, Math.min(platform.size(), reference.size()))
        .mapToObj(i -> SideFigures.ratio(platform.get(i).sustainedRate(), reference.get(i).sustainedRate())).toList());
    say("  %-22s %s %s (each run's ratio: %s)", "platform / reference", Spread.decimals(ratioOfMedians),
        verdict(ratioOfMedians), ratios.format(Spread::decimals));
  }

  private static void summaryRow(double rate, String side, List<SideFigures> runs) {
    List<SideFigures.StepFigures> steps = runs.stream().map(run -> run.at(rate)).filter(Objects::nonNull).toList();
    if (steps.isEmpty()) {
      say("  %-9s %-10s %22s", Report.rate(rate) + "/s", side, "(not run)");
      return;
    }
    long sustained = steps.stream().filter(SideFigures.StepFigures::sustained).count();
    say("  %-9s %-10s %22s %6s %30s %30s %30s %22s %20s", steps.getFirst().label(), side,
        stepSpread(steps, SideFigures.StepFigures::acceptedPerSecond).format(Spread::number),
        sustained + "/" + steps.size(),
        stepSpread(steps, SideFigures.StepFigures::p50).format(Spread::number),
        stepSpread(steps, SideFigures.StepFigures::p99).format(Spread::number),
        stepSpread(steps, SideFigures.StepFigures::p999).format(Spread::number),
        stepSpread(steps, SideFigures.StepFigures::outcomeToCallbackP99).format(Spread::number),
        stepSpread(steps, SideFigures.StepFigures::cpuMillisPerPayment).format(Spread::decimals));
  }

  private static void summaryLine(String what, List<SideFigures> platform, List<SideFigures> reference,
      ToDoubleFunction<SideFigures> figure, DoubleFunction<String> number) {
    say("  %-22s platform %s%s", what, spread(platform, figure).format(number),
        reference.isEmpty() ? "" : "   reference " + spread(reference, figure).format(number));
  }

  private static Spread spread(List<SideFigures> runs, ToDoubleFunction<SideFigures> figure) {
    return Spread.of(runs.stream().map(run -> figure.applyAsDouble(run)).toList());
  }

  private static Spread stepSpread(List<SideFigures.StepFigures> steps,
      Function<SideFigures.StepFigures, Double> figure) {
    return Spread.of(steps.stream().map(figure).toList());
  }

  /** Every offered rate of either side, lowest first. */
  private static TreeSet<Double> rates(List<SideFigures> platform, List<SideFigures> reference) {
    TreeSet<Double> rates = new TreeSet<>();
    platform.forEach(run -> run.steps().forEach(step -> rates.add(step.rate())));
    reference.forEach(run -> run.steps().forEach(step -> rates.add(step.rate())));
    return rates;
  }

  private static String verdict(double ratio) {
    if (Double.isNaN(ratio)) {
      return "(no yardstick: the reference sustained no step)";
    }
    return String.format(Locale.ROOT, "(target >= %.1f: %s)", TARGET_RATIO, ratio >= TARGET_RATIO ? "holds" : "MISSED");
  }
}
