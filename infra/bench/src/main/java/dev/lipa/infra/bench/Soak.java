package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * {@code --soak}: whether the platform holds a steady rate over time. The soak is one long step; this listener puts
 * every answer in the window (a minute) its request was due in, and reads the platform's PSS every few seconds,
 * keeping each window's highest. It holds when, after the first five minutes (the baseline; half of a shorter soak),
 * no window's p99 is more than 25% above the baseline's p99, and no window's peak PSS is more than 10% above the
 * baseline's peak, when the caches are warm (issue 18's soak target).
 *
 * <p>Peaks, not one reading at each window's end: a heap that a collector grows and shrinks (the on-disk store's
 * swings by 150 MB within a minute) makes a single reading land anywhere in its swing, so a baseline read at a trough
 * judged a steady platform as growing. What grows shows in the peaks all the same.
 */
final class Soak implements OpenLoad.Outcomes, AutoCloseable {

  static final long WINDOW_MILLIS = 60_000;
  static final int BASELINE_WINDOWS = 5;
  static final double P99_GROWTH = 1.25;
  static final double MEMORY_GROWTH = 1.10;
  static final long PSS_SAMPLE_MILLIS = 5_000;

  private final long windowMillis;
  private final int windows;
  private final ConcurrentMap<Integer, Window> byIndex = new ConcurrentHashMap<>();
  private final AtomicLongArray pssPeak;
  private ScheduledExecutorService sampler;
  private volatile long startMillis = -1;

  /** One window's answers. */
  static final class Window {
    final Histogram latency = new ConcurrentHistogram(OpenLoad.MAX_MICROS, 3);
    final LongAdder accepted = new LongAdder();
    final LongAdder refused = new LongAdder();
  }

  /** The judgement: whether it held, and what the figures were. */
  record Verdict(boolean p99Held, double baselineP99Millis, double worstP99Millis, int worstWindow,
      boolean memoryFlat, long baselinePss, long highestPss) {
  }

  Soak(long durationMillis, long windowMillis) {
    this.windowMillis = windowMillis;
    this.windows = (int) Math.max(1, (durationMillis + windowMillis - 1) / windowMillis);
    this.pssPeak = new AtomicLongArray(windows);
  }

  /** Starts the windows now, and reads {@code pss} (the platform's, in bytes) every few seconds until the last ends. */
  void start(LongSupplier pss) {
    long started = System.currentTimeMillis();
    startMillis = started;
    sampler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("soak-pss").factory());
    long period = Math.min(PSS_SAMPLE_MILLIS, windowMillis);
    sampler.scheduleAtFixedRate(() -> {
      long index = (System.currentTimeMillis() - started) / windowMillis;
      if (index < windows) {
        pss((int) index, pss.getAsLong());
      }
    }, period, period, TimeUnit.MILLISECONDS);
  }

  /** One reading of the platform's PSS during window {@code index}, as {@link #start} takes them (tests pass them). */
  void pss(int index, long bytes) {
    pssPeak.accumulateAndGet(index, bytes, Math::max);
  }

  private long peak(int index) {
    return pssPeak.get(index);
  }

  @Override
  public void answered(String outcome, long atMillis, long dueMillis, long micros) {
    if (startMillis < 0 || dueMillis < startMillis) {
      return;
    }
    int index = (int) Math.min(windows - 1, (dueMillis - startMillis) / windowMillis);
    Window window = byIndex.computeIfAbsent(index, i -> new Window());
    if ("201".equals(outcome)) {
      window.accepted.increment();
      window.latency.recordValue(Math.min(Math.max(micros, 0), OpenLoad.MAX_MICROS));
    } else {
      window.refused.increment();
    }
  }

  /** Starts the windows at {@code millis} without a sampler (tests). */
  void startAt(long millis) {
    startMillis = millis;
  }

  int baselineWindows() {
    return Math.max(1, Math.min(BASELINE_WINDOWS, windows / 2));
  }

  Verdict verdict() {
    Histogram baseline = new Histogram(OpenLoad.MAX_MICROS, 3);
    int base = baselineWindows();
    for (int i = 0; i < base; i++) {
      Window window = byIndex.get(i);
      if (window != null) {
        baseline.add(window.latency);
      }
    }
    double baselineP99 = p99(baseline);
    double worst = Double.NaN;
    int worstWindow = -1;
    for (int i = base; i < windows; i++) {
      Window window = byIndex.get(i);
      double p99 = window == null ? Double.NaN : p99(window.latency);
      if (!Double.isNaN(p99) && (Double.isNaN(worst) || p99 > worst)) {
        worst = p99;
        worstWindow = i;
      }
    }
    boolean held = !Double.isNaN(baselineP99) && (Double.isNaN(worst) || worst <= P99_GROWTH * baselineP99);
    long baselinePss = 0;
    for (int i = 0; i < base; i++) {
      baselinePss = Math.max(baselinePss, peak(i));
    }
    long highest = 0;
    for (int i = base; i < windows; i++) {
      highest = Math.max(highest, peak(i));
    }
    boolean flat = baselinePss > 0 && highest <= MEMORY_GROWTH * baselinePss;
    return new Verdict(held, baselineP99, worst, worstWindow, flat, baselinePss, highest);
  }

  void print() {
    say("");
    say("== soak: per %d s window (requests by when they were due); the platform's peak PSS in each window (read every "
        + "%d s)", windowMillis / 1000, Math.min(PSS_SAMPLE_MILLIS, windowMillis) / 1000);
    say("  window   accepted/s  refused    p50 ms    p99 ms  peak PSS MiB");
    for (int i = 0; i < windows; i++) {
      Window window = byIndex.get(i);
      double seconds = windowMillis / 1000.0;
      say("  %6d %12.0f %8d %9.1f %9.1f %13d", i + 1, window == null ? 0 : window.accepted.sum() / seconds,
          window == null ? 0 : window.refused.sum(), window == null ? Double.NaN : millis(window.latency, 50),
          window == null ? Double.NaN : millis(window.latency, 99), peak(i) >> 20);
    }
    Verdict verdict = verdict();
    say("  p99 held within %.0f%% of the first %d window(s)' %.1f ms: %s (worst %.1f ms, window %d)",
        (P99_GROWTH - 1) * 100, baselineWindows(), verdict.baselineP99Millis(), verdict.p99Held() ? "yes" : "NO",
        verdict.worstP99Millis(), verdict.worstWindow() + 1);
    say("  memory flat (peak PSS at most %.0f%% above the first %d window(s)' peak, %d MiB): %s (highest %d MiB)",
        (MEMORY_GROWTH - 1) * 100, baselineWindows(), verdict.baselinePss() >> 20, verdict.memoryFlat() ? "yes" : "NO",
        verdict.highestPss() >> 20);
  }

  private static double p99(Histogram histogram) {
    return millis(histogram, 99);
  }

  private static double millis(Histogram histogram, double percentile) {
    return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(percentile) / 1000.0;
  }

  @Override
  public void close() {
    if (sampler != null) {
      sampler.shutdownNow();
    }
  }
}
