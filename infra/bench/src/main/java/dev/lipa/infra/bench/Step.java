package dev.lipa.infra.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** The figures of one rate step. */
final class Step {
  final String label;
  final int index;
  final double rate;
  final long durationMillis;
  final LongAdder offered = new LongAdder();
  final LongAdder accepted = new LongAdder();
  final Histogram latency = new ConcurrentHistogram(OpenLoad.MAX_MICROS, 3);
  final Histogram failedLatency = new ConcurrentHistogram(OpenLoad.MAX_MICROS, 3);
  final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  long startedAtMillis;
  long endedAtMillis;
  long drainedAtMillis;

  Step(String label, int index, double rate, long durationMillis) {
    this.label = label;
    this.index = index;
    this.rate = rate;
    this.durationMillis = durationMillis;
  }

  void error(String kind) {
    errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
  }

  double seconds() {
    return durationMillis / 1000.0;
  }

  double offeredPerSecond() {
    return offered.sum() / seconds();
  }

  double acceptedPerSecond() {
    return accepted.sum() / seconds();
  }

  long errorCount() {
    return errors.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** Latency of the accepted requests, in milliseconds. */
  double millis(double percentile) {
    return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile) / 1000.0;
  }

  String errorSummary() {
    if (errors.isEmpty()) {
      return "none";
    }
    StringBuilder text = new StringBuilder();
    new TreeMap<>(errors).forEach((kind, n) -> text.append(text.isEmpty() ? "" : ", ").append(kind).append(" ")
        .append(n.sum()));
    return text.toString();
  }

  /** Accepted nearly everything offered, with a p99 under a second: the platform kept up with this rate. */
  boolean sustained() {
    return offered.sum() > 0 && accepted.sum() >= 0.99 * offered.sum() && millis(99) < 1000;
  }
}
