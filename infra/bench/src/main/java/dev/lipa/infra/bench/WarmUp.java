package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

/**
 * The warm-up: slices of at most {@link #SLICE_MILLIS} at the warm-up rate, up to {@code --warmup-seconds}. With a
 * settle share, it ends early, once at least {@link #MIN_MILLIS} have run, after a slice in which the platform's JIT
 * compiled for less than that share of the machine's time: the figures after it measure the platform, not its
 * compilers. Its pushes are reconciled with the others but counted in no step.
 */
final class WarmUp {

  /** The warm-up's slice: how often it asks whether the JIT has settled. */
  static final long SLICE_MILLIS = 30_000;
  /** The shortest warm-up when it may end early. */
  static final long MIN_MILLIS = 60_000;

  private WarmUp() {
  }

  static void run(Run run, ProcessSamples samples, OpenLoad.Target platform) {
    BenchOptions options = run.options();
    int cores = Runtime.getRuntime().availableProcessors();
    long done = 0;
    double lastShare = Double.NaN;
    while (done < options.warmupMillis()) {
      long slice = options.warmupSettle() > 0
          ? Math.min(SLICE_MILLIS, options.warmupMillis() - done) : options.warmupMillis();
      JitTime.Snapshot jitBefore = samples.jit();
      long startedNanos = System.nanoTime();
      Step warmup = run.load().run("warm-up", -1, options.warmupRate(), slice, platform);
      JitTime.Usage jit = samples.jit().since(jitBefore);
      double share = jit.shareOf(System.nanoTime() - startedNanos, cores);
      say("%s   (not counted; %.0f-%.0f s; %s)", run.stepLine(warmup), done / 1000.0, (done + slice) / 1000.0,
          CpuReport.jitShare(jit, share));
      done += slice;
      lastShare = jit.readable() ? share : Double.NaN;
      // unreadable counters (NaN) never end it early: the whole --warmup-seconds runs
      if (options.warmupSettle() > 0 && done >= MIN_MILLIS && lastShare < options.warmupSettle()) {
        say("  warm-up settled after %.0f s: the JIT compiled for %.1f%% of the machine's time in its last slice",
            done / 1000.0, lastShare * 100);
        return;
      }
    }
    if (options.warmupSettle() > 0 && lastShare >= options.warmupSettle()) {
      say("  warm-up ended at --warmup-seconds %.0f without settling (the JIT's share was %.0f%% in its last slice)",
          options.warmupMillis() / 1000.0, lastShare * 100);
    }
  }
}
