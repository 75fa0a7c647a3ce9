package dev.lipa.infra.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.HdrHistogram.Histogram;

/**
 * Every answer of a {@code ./platform chaos} run with the time its request was due and its latency, and what they say
 * about the faults: each fault's window (from its injection until the first whole second after its repair in which
 * every request was accepted and the p99 was under a second), the requests that failed outside every window, and the
 * latency inside and outside the windows.
 */
final class ChaosTimeline implements OpenLoad.Outcomes {

  /** One answer: when its request was due (wall clock), how long it took, and how it ended ("201" or a failure). */
  record Answer(long dueMillis, long micros, String outcome) {
    boolean accepted() {
      return outcome.equals("201");
    }

    long endMillis() {
      return dueMillis + micros / 1000;
    }

    /** Whether the request was in flight at some time of [from, to). */
    boolean overlaps(long fromMillis, long toMillis) {
      return dueMillis < toMillis && endMillis() >= fromMillis;
    }
  }

  /** A fault's window and what happened in it. */
  record Window(ChaosFault fault, long fromMillis, long toMillis, boolean recovered, long failed,
      Map<String, Long> failures, double p99Millis) {
  }

  static final long RECOVERED_P99_MICROS = 1_000_000;

  private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
  /** The warm-up's answers: they count in no figure, they only say when the platform has become steady. */
  private final ConcurrentLinkedQueue<Answer> warmup = new ConcurrentLinkedQueue<>();
  private volatile long startMillis;

  void start(long nowMillis) {
    startMillis = nowMillis;
  }

  long startMillis() {
    return startMillis;
  }

  @Override
  public void answered(String outcome, long atMillis, long dueMillis, long micros) {
    long start = startMillis;
    if (start > 0 && dueMillis >= start) {
      answers.add(new Answer(dueMillis, micros, outcome));
    } else {
      warmup.add(new Answer(dueMillis, micros, outcome));
    }
  }

  /**
   * Whether the warm-up's last seconds were calm: of the requests due from {@code 4 s} to {@code 2 s} before now, at
   * least 90% of those offered at {@code ratePerSecond} answered, every one accepted in under a second.
   */
  boolean warmedUp(long nowMillis, double ratePerSecond) {
    warmup.removeIf(a -> a.dueMillis() < nowMillis - 10_000);
    List<Answer> recent = warmup.stream()
        .filter(a -> a.dueMillis() >= nowMillis - 4000 && a.dueMillis() < nowMillis - 2000).toList();
    return recent.size() >= 0.9 * 2 * ratePerSecond
        && recent.stream().allMatch(a -> a.accepted() && a.micros() < RECOVERED_P99_MICROS);
  }

  List<Answer> answers() {
    List<Answer> sorted = new ArrayList<>(answers);
    sorted.sort(Comparator.comparingLong(Answer::dueMillis));
    return sorted;
  }

  /** The windows of the faults (in their order), from every answer of the run. */
  static List<Window> windows(List<ChaosFault> faults, List<Answer> answers, long loadEndMillis) {
    List<Window> windows = new ArrayList<>();
    for (ChaosFault fault : faults) {
      if (fault.injectedAtMillis < 0) {
        continue;
      }
      long repaired = fault.repairedAtMillis < 0 ? loadEndMillis : fault.repairedAtMillis;
      long end = -1;
      // the first whole second that starts at or after the repair
      for (long second = repaired + (1000 - repaired % 1000) % 1000; second + 1000 <= loadEndMillis;
          second += 1000) {
        if (calm(answers, second, second + 1000)) {
          end = second;
          break;
        }
      }
      boolean recovered = end >= 0;
      long to = recovered ? end : loadEndMillis;
      Map<String, Long> failures = new TreeMap<>();
      Histogram latency = histogram();
      long failed = 0;
      for (Answer a : answers) {
        if (!a.overlaps(fault.injectedAtMillis, to)) {
          continue;
        }
        if (a.accepted()) {
          latency.recordValue(a.micros());
        } else {
          failed++;
          failures.merge(a.outcome(), 1L, Long::sum);
        }
      }
      windows.add(new Window(fault, fault.injectedAtMillis, to, recovered, failed, failures, p99(latency)));
    }
    return windows;
  }

  /** Whether every request due in [from, to) was accepted, with a p99 under a second (and there was one at least). */
  private static boolean calm(List<Answer> answers, long fromMillis, long toMillis) {
    Histogram latency = histogram();
    for (Answer a : answers) {
      if (a.dueMillis() >= fromMillis && a.dueMillis() < toMillis) {
        if (!a.accepted()) {
          return false;
        }
        latency.recordValue(a.micros());
      }
    }
    return latency.getTotalCount() > 0 && latency.getValueAtPercentile(99) < RECOVERED_P99_MICROS;
  }

  /** Whether the answer's request was in flight during some window. */
  static boolean inside(Answer answer, List<Window> windows) {
    return windows.stream().anyMatch(w -> answer.overlaps(w.fromMillis(), w.toMillis()));
  }

  static Histogram histogram() {
    return new Histogram(OpenLoad.MAX_MICROS, 3);
  }

  /** The p99 in milliseconds, NaN without values. */
  static double p99(Histogram latency) {
    return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(99) / 1000.0;
  }
}
