package dev.lipa.common.sandbox;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs tasks after a fixed delay, as the sandbox rails answer a request "later": one timer thread waits, and the
 * task itself (which writes to the store) runs on a virtual thread, never on the timer.
 */
public final class DelayedTasks implements AutoCloseable {

  private final long delayMillis;
  private final ScheduledExecutorService timers;
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();

  public DelayedTasks(String timerName, Duration delay) {
    this.delayMillis = delay.toMillis();
    // per replica by nature: this replica's own simulated answers; a lost one is the overdue sweep's (under a lease)
    this.timers = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name(timerName).factory());
  }

  /** Schedules the task; false when shutting down (the caller's overdue sweep then answers instead). */
  public boolean schedule(Runnable task) {
    try {
      timers.schedule(() -> workers.execute(task), delayMillis, TimeUnit.MILLISECONDS);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  @Override
  public void close() {
    timers.shutdownNow();
    workers.shutdown();
    try {
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
