package dev.lipa.infra.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;

/**
 * The key figures of one side (the platform, or the reference payment) in one measured run: per step, and per payment
 * over the run. What the side-by-side table prints and what the medians of repeated runs are taken of.
 *
 * @param writesPerPayment store write statements per accepted payment, on the side's own databases only
 * @param recordsPerPayment Kafka records per accepted payment, on the side's own topics only
 */
record SideFigures(List<StepFigures> steps, double writesPerPayment, double recordsPerPayment, long lost,
    long duplicated) {

  /** The CPU of the processes a side's payments use: the platform's, or the reference's, store's and Kafka's. */
  static final Predicate<String> PLATFORM_PROCESSES = name -> !name.equals(ProcessSamples.BENCH)
      && !name.equals(ProcessSamples.REFERENCE);
  static final Predicate<String> REFERENCE_PROCESSES = name -> name.equals(ProcessSamples.REFERENCE)
      || name.equals("store") || name.startsWith("kafka");

  /**
   * One step's figures.
   *
   * @param outcomeToCallbackP99 milliseconds from the outcome event's occurredAt to the callback's arrival, p99; NaN
   *     when no callback of the step's payments was matched with its outcome
   * @param cpuMillisPerPayment CPU of the side's processes over the step per accepted payment; NaN without one
   */
  record StepFigures(double rate, String label, double acceptedPerSecond, boolean sustained, double p50, double p99,
      double p999, double outcomeToCallbackP99, double cpuMillisPerPayment) {
  }

  /** The figures of measured steps, with each step's CPU usage (same order) and the run's outcomes and callbacks. */
  static List<StepFigures> of(List<Step> steps, List<ProcessCpu.Usage> cpu, Run run, Predicate<String> processes) {
    List<StepFigures> figures = new ArrayList<>(steps.size());
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      Histogram toCallback = Report.outcomeToCallback(step.index, run.callbacks(), run.outcomes(), run.acceptedStep());
      figures.add(new StepFigures(step.rate, step.label, step.acceptedPerSecond(), step.sustained(), step.millis(50),
          step.millis(99), step.millis(99.9),
          toCallback.getTotalCount() == 0 ? Double.NaN : toCallback.getValueAtPercentile(99),
          i < cpu.size() ? cpu.get(i).millisPer(processes, step.accepted.sum()) : Double.NaN));
    }
    return List.copyOf(figures);
  }

  /** The highest accepted rate of a step the side kept up with (0 when it kept up with none). */
  double sustainedRate() {
    return steps.stream().filter(StepFigures::sustained).mapToDouble(StepFigures::acceptedPerSecond).max().orElse(0);
  }

  /** The step at this offered rate, or null when the side had none. */
  StepFigures at(double rate) {
    return steps.stream().filter(step -> step.rate() == rate).findFirst().orElse(null);
  }

  /**
   * Platform ÷ reference, as the issue judges them: NaN when the reference sustained no step (no yardstick), and
   * for figures that are not numbers.
   */
  static double ratio(double platform, double reference) {
    if (!(reference > 0) || Double.isNaN(platform) || Double.isInfinite(reference)) {
      return Double.NaN;
    }
    return platform / reference;
  }
}
