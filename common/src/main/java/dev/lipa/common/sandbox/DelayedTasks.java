package dev.lipa.common.sandbox;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Runs tasks after a fixed delay, as the sandbox rails answer a request "later": one timer thread waits, and the
 * task itself (which writes to the store) runs on a virtual thread, never on the timer.
 *
 * <p><b>At most {@link #concurrency()} tasks run at once</b>; the others wait for a turn, in the order they came due,
 * holding nothing but their virtual thread. Without the bound a burst of due tasks takes the service's whole store
 * connection pool: when a Kafka broker comes back after an outage, the rail's listener receives every push accepted
 * meanwhile within a second, their outcomes all fall due together a few seconds later, and the profile of that
 * moment showed some 700 outcome writes queued for the 100 connections of collections-service, with the accepts'
 * inserts waiting behind them for up to the gateway's timeout. Bounded, the backlog drains at the store's pace while a
 * request still finds a free connection.
 */
public final class DelayedTasks implements AutoCloseable {

  /**
   * Tasks running at once by default: a third of the store driver's default pool (100), so requests keep two thirds
   * of it; far above what the rail needs at a steady rate while the store answers in milliseconds (150 outcomes/s at
   * 5 ms each keep one busy), and still 150/s when a starved store takes 200 ms per outcome. Slower than that, the
   * outcomes fall behind (they are asynchronous, and the overdue sweep covers a lost timer) rather than the accepts.
   */
  public static final int DEFAULT_CONCURRENCY = 32;

  /** How long {@link #close()} waits for the answers already scheduled to fall due, at most. */
  static final Duration DRAIN = Duration.ofSeconds(5);

  private final long delayMillis;
  private final int concurrency;
  private final Semaphore turns;
  private final ScheduledExecutorService timers;
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
  /** {@link System#nanoTime()} when {@link #close()} began: a task already due and waiting for a turn then is dropped. */
  private volatile long closingSince;
  private volatile boolean closing;
  /** Set at the end of {@link #close()}: a task that has not started by then never starts. */
  private volatile boolean closed;

  public DelayedTasks(String timerName, Duration delay) {
    this(timerName, delay, DEFAULT_CONCURRENCY);
  }

  public DelayedTasks(String timerName, Duration delay, int concurrency) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1, was " + concurrency);
    }
    this.delayMillis = delay.toMillis();
    this.concurrency = concurrency;
    // fair: a task that came due earlier runs earlier, so no outcome waits behind a stream of newer ones
    this.turns = new Semaphore(concurrency, true);
    // per replica by nature: this replica's own simulated answers; a lost one is the overdue sweep's (under a lease)
    this.timers = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name(timerName).factory());
  }

  /** Schedules the task; false when shutting down (the caller's overdue sweep then answers instead). */
  public boolean schedule(Runnable task) {
    try {
      timers.schedule(() -> {
        long due = System.nanoTime();
        workers.execute(() -> runInTurn(task, due));
      }, delayMillis, TimeUnit.MILLISECONDS);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /** How many tasks may run at once. */
  public int concurrency() {
    return concurrency;
  }

  /**
   * Stops, in a bounded time. No task is scheduled any more. An answer already scheduled is still given if it falls due
   * within {@link #DRAIN} (the sandbox's delay is 3 s): a rolling restart then leaves no merchant waiting a minute for
   * the overdue sweep to answer a push the stopping replica had scheduled just before (the chaos run measured those
   * minutes). What is due later, and a backlog of tasks already due and waiting for a turn when the close began (after
   * a broker's return, hundreds), is dropped like a task whose timer never fired: the caller's overdue sweep answers
   * for it, from this replica after a restart or from another. The tasks running get at most 5 s more to finish, and
   * nothing starts after this returns (the service's Kafka producer closes after its rails).
   */
  @Override
  public void close() {
    closingSince = System.nanoTime();
    closing = true;
    long deadline = closingSince + Math.min(delayMillis, DRAIN.toMillis()) * 1_000_000L + 250_000_000L;
    timers.shutdown(); // a scheduled executor's delayed tasks still fire after shutdown() (its default policy)
    awaitUntil(timers, deadline);
    timers.shutdownNow();
    workers.shutdown();
    awaitUntil(workers, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
    closed = true;
  }

  private static void awaitUntil(ExecutorService executor, long deadlineNanos) {
    try {
      executor.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void runInTurn(Runnable task, long dueNanos) {
    try {
      turns.acquire();
    } catch (InterruptedException e) {
      // shutting down: the task is dropped like one whose timer never fired; the caller's overdue sweep answers
      Thread.currentThread().interrupt();
      return;
    }
    try {
      // dropped: anything once the close is over, and a task that was already due and waiting when it began
      boolean backlog = closing && dueNanos - closingSince < 0;
      if (!closed && !backlog) {
        task.run();
      }
    } finally {
      turns.release();
    }
  }
}
