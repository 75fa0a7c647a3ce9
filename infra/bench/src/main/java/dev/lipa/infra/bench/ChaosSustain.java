package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * {@code ./platform chaos --sustain <rates>}: the rate of the chaos mix (STK pushes and payouts, half each) that the
 * running cluster sustains with no fault, so that the chaos run's {@code --rate} can be half of it, as the run is meant
 * to be. Each rate is one step of {@code --step-seconds}, in order; a step is sustained when every request was
 * accepted, the accept p99 stayed under a second, and every accepted payment's callback arrived within
 * {@value #CATCH_UP_MILLIS} ms of the step's last answer (a platform that accepts but falls behind on its outcomes is
 * not sustaining the rate). The first step that is not sustained ends the measure: past it the backlog would be
 * measured, not the rate.
 */
final class ChaosSustain {

  /** How long after a step's last answer its callbacks may still come: later, the platform fell behind. */
  static final long CATCH_UP_MILLIS = 30_000;

  /** One step's figures. */
  record Result(double rate, long offered, long accepted, double p50Millis, double p99Millis, String errors,
      long callbacksMissing, double callbacksAfterSeconds) {

    boolean sustained() {
      return offered > 0 && accepted == offered && p99Millis < 1000 && callbacksMissing == 0;
    }
  }

  private ChaosSustain() {
  }

  /**
   * Runs the steps; {@code targets} gives the load's targets (every gateway, STK pushes and payouts) recording the
   * request ids they see accepted in the map given. Returns the steps run.
   */
  static List<Result> measure(ChaosOptions options, CallbackCounter callbacks,
      Function<Map<String, Integer>, List<OpenLoad.Target>> targets) throws InterruptedException {
    List<Result> results = new ArrayList<>();
    say("");
    say("== sustained rate: %.0f s per step, no fault; a step is sustained with every request accepted, p99 < 1 s and"
        + " every callback within %.0f s of its last answer", options.stepMillis() / 1000.0, CATCH_UP_MILLIS / 1000.0);
    say("  %8s %8s %8s %8s %9s %9s  %-28s %s", "rate/s", "offered", "accepted", "failed", "p50 (ms)", "p99 (ms)",
        "callbacks", "sustained");
    for (double rate : options.sustainRates()) {
      Result result = step(options, callbacks, targets, rate);
      results.add(result);
      say("  %8s %8d %8d %8d %9.0f %9.0f  %-28s %s%s", Report.rate(rate), result.offered(), result.accepted(),
          result.offered() - result.accepted(), result.p50Millis(), result.p99Millis(),
          result.callbacksMissing() == 0 ? "all, %.1f s after".formatted(result.callbacksAfterSeconds())
              : "%d missing after %.0f s".formatted(result.callbacksMissing(), CATCH_UP_MILLIS / 1000.0),
          result.sustained() ? "yes" : "NO", result.errors().isEmpty() ? "" : "  (" + result.errors() + ")");
      if (!result.sustained()) {
        break;
      }
    }
    double sustained = sustainedRate(results);
    say("");
    say(sustained > 0
        ? "sustained: %s/s of the mix; run the chaos at half of it: ./platform chaos --rate %s".formatted(
            Report.rate(sustained), Report.rate(sustained / 2))
        : "sustained: none of the rates (try lower ones)");
    return results;
  }

  /** The highest rate of the leading run of sustained steps (0 when the first was not). */
  static double sustainedRate(List<Result> results) {
    double sustained = 0;
    for (Result result : results) {
      if (!result.sustained()) {
        break;
      }
      sustained = Math.max(sustained, result.rate());
    }
    return sustained;
  }

  private static Result step(ChaosOptions options, CallbackCounter callbacks,
      Function<Map<String, Integer>, List<OpenLoad.Target>> targets, double rate) throws InterruptedException {
    Map<String, Integer> accepted = new ConcurrentHashMap<>();
    List<OpenLoad.Target> stepTargets = targets.apply(accepted);
    double perTarget = rate / stepTargets.size();
    List<Step> steps = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (OpenLoad.Target target : stepTargets) {
      OpenLoad load = new OpenLoad(options.connections(), 20_000,
          TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis()));
      threads.add(Thread.ofPlatform().name("chaos-sustain-" + threads.size()).start(() -> {
        Step s = load.run("sustain", 0, perTarget, options.stepMillis(), target);
        synchronized (steps) {
          steps.add(s);
        }
      }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    long answered = System.currentTimeMillis();
    long deadline = answered + CATCH_UP_MILLIS;
    long missing = missing(accepted, callbacks);
    while (missing > 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(250);
      missing = missing(accepted, callbacks);
    }
    double after = (System.currentTimeMillis() - answered) / 1000.0;
    Histogram latency = ChaosTimeline.histogram();
    long offered = 0;
    long acceptedCount = 0;
    Map<String, Long> errors = new TreeMap<>();
    for (Step s : steps) {
      latency.add(s.latency);
      offered += s.offered.sum();
      acceptedCount += s.accepted.sum();
      s.errors.forEach((kind, n) -> errors.merge(kind, n.sum(), Long::sum));
    }
    StringBuilder errorText = new StringBuilder();
    errors.forEach((kind, n) -> errorText.append(errorText.isEmpty() ? "" : ", ").append(kind).append(' ').append(n));
    return new Result(rate, offered, acceptedCount, millis(latency, 50), millis(latency, 99), errorText.toString(),
        missing, after);
  }

  private static long missing(Map<String, Integer> accepted, CallbackCounter callbacks) {
    return accepted.keySet().stream().filter(id -> callbacks.get(id) == null).count();
  }

  private static double millis(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
  }
}
