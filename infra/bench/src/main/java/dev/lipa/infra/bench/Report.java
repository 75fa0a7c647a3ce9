package dev.lipa.infra.bench;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** The bench's printed figures. */
final class Report {

  static final String STEP_HEADER = String.format(Locale.ROOT, "  %-9s %9s %10s %8s %8s %9s %11s %18s  %s",
      "step", "offered/s", "accepted/s", "p50 ms", "p99 ms", "p99.9 ms", "callbacks/s", "outcome→cb p50/p99",
      "errors");


  private Report() {
  }

  /** One line of the report on stdout (the bench's output; what its libraries log goes to stderr). */
  static void say(String format, Object... args) {
    System.out.println(args.length == 0 ? format : String.format(Locale.ROOT, format, args));
    System.out.flush();
  }

  static String rate(double rate) {
    return rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate);
  }

  static String stepLine(Step step, CallbackCounter callbacks, OutcomeWatcher outcomes,
      Map<String, Integer> acceptedStep) {
    Histogram toCallback = outcomeToCallback(step.index, callbacks, outcomes, acceptedStep);
    String outcomeToCallback = toCallback.getTotalCount() == 0 ? "-"
        : String.format(Locale.ROOT, "%d / %d ms", toCallback.getValueAtPercentile(50),
            toCallback.getValueAtPercentile(99));
    return String.format(Locale.ROOT, "  %-9s %9.0f %10.0f %8s %8s %9s %11.0f %18s  %s", step.label,
        step.offeredPerSecond(), step.acceptedPerSecond(), ms(step.millis(50)), ms(step.millis(99)),
        ms(step.millis(99.9)), callbacksPerSecond(step, callbacks), outcomeToCallback, step.errorSummary());
  }

  private static String ms(double millis) {
    if (Double.isNaN(millis)) {
      return "-";
    }
    return millis < 10 ? String.format(Locale.ROOT, "%.1f", millis) : String.format(Locale.ROOT, "%.0f", millis);
  }

  /** First callbacks received while the step's load ran, per second. */
  static double callbacksPerSecond(Step step, CallbackCounter callbacks) {
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

  static void printRecords(Map<String, Long> records, long payments, Set<String> excludedTopics) {
    long total = records.entrySet().stream().filter(e -> !excludedTopics.contains(e.getKey()))
        .mapToLong(Map.Entry::getValue).sum();
    say("  Kafka records (end offsets of the platform's topics): %d = %s per payment", total,
        perPayment(total, payments));
    records.forEach((topic, n) -> {
      if (!excludedTopics.contains(topic)) {
        say("    %-28s %8d  %s per payment", topic, n, perPayment(n, payments));
      }
    });
  }

  /** What grew between two readings of counters by name (the topics' end offsets); the unchanged are left out. */
  static Map<String, Long> diff(Map<String, Long> after, Map<String, Long> before) {
    Map<String, Long> diff = new TreeMap<>();
    after.forEach((name, n) -> {
      long d = n - before.getOrDefault(name, 0L);
      if (d != 0) {
        diff.put(name, d);
      }
    });
    return diff;
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
}
