package dev.lipa.infra.bench;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * An open-model load generator: request {@code i} of a step is due at {@code start + i / rate} and is sent then,
 * whether or not earlier requests have been answered; its latency is measured from that intended start, so a slow
 * answer (or a request the client could only send late) shows up in the figures instead of quietly lowering the load
 * (no coordinated omission). Latencies go into an HdrHistogram (microseconds).
 */
final class OpenLoad {

  /** What one request needs: its body, its token, and what to do with a 201 answer. */
  interface Target {
    HttpRequest request(long sequence);

    void accepted(String responseBody, int step);
  }

  static final long MAX_MICROS = TimeUnit.SECONDS.toMicros(120);

  private final HttpClient http;
  private final int maxInFlight;
  private final Semaphore inFlight;
  private final long timeoutNanos;

  OpenLoad(HttpClient http, int maxInFlight, long timeoutNanos) {
    this.http = http;
    this.maxInFlight = maxInFlight;
    this.inFlight = new Semaphore(maxInFlight);
    this.timeoutNanos = timeoutNanos;
  }

  /** Runs one step at a fixed arrival rate and waits for its requests to finish (or time out). */
  Step run(String label, int stepIndex, double rate, long durationMillis, Target target) {
    Step step = new Step(label, stepIndex, rate, durationMillis);
    long count = Math.round(rate * durationMillis / 1000.0);
    double intervalNanos = 1e9 / rate;
    step.startedAtMillis = System.currentTimeMillis();
    long start = System.nanoTime();
    for (long i = 0; i < count; i++) {
      long due = start + (long) (i * intervalNanos);
      long wait;
      while ((wait = due - System.nanoTime()) > 20_000) {
        LockSupport.parkNanos(wait - 10_000);
      }
      step.offered.increment();
      if (!inFlight.tryAcquire()) {
        // the client's own limit: counted as an error of the run, never silently skipped
        step.error("client: in-flight limit");
        continue;
      }
      HttpRequest request = target.request(i);
      http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, failure) -> {
        try {
          long micros = (System.nanoTime() - due) / 1000;
          if (failure != null) {
            step.error(kind(failure));
            step.failedLatency.recordValue(Math.min(micros, MAX_MICROS));
          } else if (response.statusCode() == 201) {
            step.latency.recordValue(Math.min(micros, MAX_MICROS));
            step.accepted.increment();
            target.accepted(response.body(), stepIndex);
          } else {
            step.error("HTTP " + response.statusCode());
            step.failedLatency.recordValue(Math.min(micros, MAX_MICROS));
          }
        } finally {
          inFlight.release();
        }
      });
    }
    step.endedAtMillis = step.startedAtMillis + durationMillis;
    // wait for the step's stragglers so that the next step starts from an empty pipe (they still count here)
    long drainUntil = System.nanoTime() + timeoutNanos + TimeUnit.SECONDS.toNanos(2);
    while (inFlight.availablePermits() < maxInFlight && System.nanoTime() < drainUntil) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    step.drainedAtMillis = System.currentTimeMillis();
    return step;
  }

  static String kind(Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    if (cause instanceof HttpConnectTimeoutException) {
      return "connect timeout";
    }
    if (cause instanceof HttpTimeoutException) {
      return "timeout";
    }
    if (cause instanceof ConnectException) {
      return "connection refused";
    }
    if (cause instanceof IOException) {
      return "connection: " + cause.getClass().getSimpleName();
    }
    return "client: " + cause.getClass().getSimpleName();
  }

  /** The figures of one rate step. */
  static final class Step {
    final String label;
    final int index;
    final double rate;
    final long durationMillis;
    final LongAdder offered = new LongAdder();
    final LongAdder accepted = new LongAdder();
    final Histogram latency = new ConcurrentHistogram(MAX_MICROS, 3);
    final Histogram failedLatency = new ConcurrentHistogram(MAX_MICROS, 3);
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
}
