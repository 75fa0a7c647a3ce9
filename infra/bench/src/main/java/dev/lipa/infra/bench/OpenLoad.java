package dev.lipa.infra.bench;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-model load generator: request {@code i} of a step is due at {@code start + i / rate} and is queued then,
 * whether or not earlier requests have been answered; its latency is measured from that intended start, so a slow
 * answer (or a request that waited for a free connection) shows up in the figures instead of quietly lowering the
 * load (no coordinated omission). Latencies go into an HdrHistogram (microseconds).
 *
 * <p>Requests go over a fixed pool of keep-alive HTTP/1.1 connections ({@link Http1Connection}), one virtual thread
 * each, as a merchant's connection pool would; a request waits in the client's queue while every connection is busy.
 * At most {@code maxInFlight} requests are queued or open at once: beyond that a request is counted as an error, never
 * silently skipped. A queued request that is already a timeout past its due time is not sent (it counts as a timeout).
 */
final class OpenLoad {

  /** What one request needs: where it goes, its bytes, and what to do with a 201 answer. */
  interface Target {
    InetSocketAddress address();

    /** The whole HTTP/1.1 request (request line, headers, body). */
    byte[] request(long sequence);

    void accepted(String responseBody, int step);
  }

  /**
   * Hears of every request's outcome when it is known: {@code "201"}, {@code "HTTP 503"}, or the failure's kind; with
   * the wall-clock time the request was due and its latency from then.
   */
  interface Outcomes {
    void answered(String outcome, long atMillis, long dueMillis, long micros);
  }

  static final long MAX_MICROS = TimeUnit.SECONDS.toMicros(120);
  private static final int CONNECT_TIMEOUT_MILLIS = 5000;

  private final int connections;
  private final int maxInFlight;
  private final long timeoutNanos;
  private volatile Outcomes outcomes = (outcome, atMillis, dueMillis, micros) -> {
  };
  private volatile boolean stopped;

  OpenLoad(int connections, int maxInFlight, long timeoutNanos) {
    this.connections = connections;
    this.maxInFlight = maxInFlight;
    this.timeoutNanos = timeoutNanos;
  }

  /** Tells {@code listener} the outcome of every request from now on (the store-kill probe counts them). */
  void observe(Outcomes listener) {
    outcomes = listener;
  }

  private record Job(long sequence, long due) {
  }

  private static final Job STOP = new Job(-1, 0);

  /** Ends the running step early: no request is due after this (those already queued still go). */
  void stop() {
    stopped = true;
  }

  /** Runs one step at a fixed arrival rate and waits for its requests to finish (or time out). */
  Step run(String label, int stepIndex, double rate, long durationMillis, Target target) {
    Step step = new Step(label, stepIndex, rate, durationMillis);
    long count = Math.round(rate * durationMillis / 1000.0);
    double intervalNanos = 1e9 / rate;
    BlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    AtomicInteger outstanding = new AtomicInteger();
    List<Thread> workers = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      workers.add(Thread.ofVirtual().name("bench-connection-" + c)
          .start(() -> work(queue, outstanding, step, target)));
    }
    step.startedAtMillis = System.currentTimeMillis();
    long start = System.nanoTime();
    for (long i = 0; i < count && !stopped; i++) {
      long due = start + (long) (i * intervalNanos);
      long wait;
      while ((wait = due - System.nanoTime()) > 20_000) {
        LockSupport.parkNanos(wait - 10_000);
      }
      step.offered.increment();
      if (outstanding.incrementAndGet() > maxInFlight) {
        outstanding.decrementAndGet();
        // the client's own limit: counted as an error of the run, never silently skipped
        step.error("client: in-flight limit");
        continue;
      }
      queue.add(new Job(i, due));
    }
    step.endedAtMillis = Math.min(step.startedAtMillis + durationMillis, System.currentTimeMillis());
    // wait for the step's stragglers so that the next step starts from an empty pipe (they still count here)
    long drainUntil = System.nanoTime() + timeoutNanos + TimeUnit.SECONDS.toNanos(2);
    while (outstanding.get() > 0 && System.nanoTime() < drainUntil) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    workers.forEach(w -> queue.add(STOP));
    for (Thread worker : workers) {
      try {
        worker.join(TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + 1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    step.drainedAtMillis = System.currentTimeMillis();
    return step;
  }

  private void work(BlockingQueue<Job> queue, AtomicInteger outstanding, Step step, Target target) {
    try (Http1Connection connection = new Http1Connection(target.address(), CONNECT_TIMEOUT_MILLIS)) {
      while (true) {
        Job job = queue.take();
        if (job == STOP) {
          return;
        }
        try {
          exchange(connection, job, step, target);
        } finally {
          outstanding.decrementAndGet();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void exchange(Http1Connection connection, Job job, Step step, Target target) {
    long late = System.nanoTime() - job.due();
    if (late >= timeoutNanos) {
      step.error("timeout (queued in the client)");
      step.failedLatency.recordValue(Math.min(late / 1000, MAX_MICROS));
      long now = System.currentTimeMillis();
      outcomes.answered("timeout (queued in the client)", now, now - late / 1_000_000, Math.min(late / 1000, MAX_MICROS));
      return;
    }
    String failure;
    Http1Connection.Response response = null;
    try {
      response = connection.exchange(target.request(job.sequence()),
          (int) TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
      failure = null;
    } catch (IOException e) {
      failure = kind(e);
    } catch (RuntimeException e) {
      connection.close();
      failure = "client: " + e.getClass().getSimpleName();
    }
    long elapsedNanos = System.nanoTime() - job.due();
    long micros = Math.min(elapsedNanos / 1000, MAX_MICROS);
    long now = System.currentTimeMillis();
    outcomes.answered(failure != null ? failure : response.status() == 201 ? "201" : "HTTP " + response.status(),
        now, now - elapsedNanos / 1_000_000, micros);
    if (failure != null) {
      step.error(failure);
      step.failedLatency.recordValue(micros);
    } else if (response.status() == 201) {
      step.latency.recordValue(micros);
      step.accepted.increment();
      target.accepted(response.body(), step.index);
    } else {
      step.error("HTTP " + response.status());
      step.failedLatency.recordValue(micros);
    }
  }

  static String kind(Throwable failure) {
    if (failure instanceof Http1Connection.ConnectTimeoutException) {
      return "connect timeout";
    }
    if (failure instanceof Http1Connection.ResponseTimeoutException) {
      return "timeout";
    }
    if (failure instanceof ConnectException) {
      return "connection refused";
    }
    if (failure instanceof IOException) {
      return "connection: " + failure.getClass().getSimpleName();
    }
    return "client: " + failure.getClass().getSimpleName();
  }
}
