package dev.lipa.common.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DelayedTasksTests {

  @Test
  void aBurstOfDueTasksRunsAtMostTheBoundAtOnceAndEveryTaskRunsInTheEnd() throws InterruptedException {
    // what a broker's return does to the sandbox rail: hundreds of outcomes due at the same moment
    int burst = 200;
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    AtomicInteger finished = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    try (DelayedTasks tasks = new DelayedTasks("test-timer", Duration.ofMillis(10), 4)) {
      for (int i = 0; i < burst; i++) {
        assertThat(tasks.schedule(() -> {
          mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            running.decrementAndGet();
            finished.incrementAndGet();
          }
        })).isTrue();
      }
      // the bound is reached (so the tasks are due and started) and then held while they hold on
      await().atMost(Duration.ofSeconds(30)).until(() -> running.get() == 4);
      await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> running.get() == 4);
      assertThat(mostAtOnce).hasValue(4);
      release.countDown();
      await().atMost(Duration.ofSeconds(30)).until(() -> finished.get() == burst);
    }
    assertThat(mostAtOnce).hasValue(4);
  }

  @Test
  void closingDropsTheTasksStillWaitingForATurnAndLetsTheRunningOnesFinish() throws InterruptedException {
    // a backlog at shutdown: what has not started must not run after the service's producer has closed
    AtomicInteger started = new AtomicInteger();
    AtomicInteger afterClose = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    DelayedTasks tasks = new DelayedTasks("test-timer", Duration.ofMillis(10), 2);
    for (int i = 0; i < 50; i++) {
      tasks.schedule(() -> {
        started.incrementAndGet();
        if (closed.getCount() == 0) {
          afterClose.incrementAndGet();
        }
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> started.get() == 2);

    // the running tasks finish a moment after the close began: their turns go to no waiting task
    Thread releaser = Thread.ofVirtual().start(() -> {
      try {
        closed.await();
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      release.countDown();
    });
    closed.countDown();
    tasks.close();
    releaser.join(Duration.ofSeconds(30));

    assertThat(started).as("tasks started in all").hasValue(2);
    assertThat(afterClose).hasValue(0);
    assertThat(tasks.schedule(() -> { })).as("scheduling after close").isFalse();
  }

  @Test
  void closingStillGivesTheAnswersAlreadyScheduledThatFallDueWithinTheDrain() {
    // a rolling restart: the pushes this replica scheduled just before its stop are answered by it, not by the overdue
    // sweep a minute later
    AtomicInteger ran = new AtomicInteger();
    DelayedTasks tasks = new DelayedTasks("test-timer", Duration.ofMillis(400), 4);
    for (int i = 0; i < 10; i++) {
      assertThat(tasks.schedule(ran::incrementAndGet)).isTrue();
    }
    long started = System.nanoTime();
    tasks.close();
    long tookMillis = (System.nanoTime() - started) / 1_000_000;

    assertThat(ran).as("answers scheduled before the close").hasValue(10);
    assertThat(tookMillis).as("the close waited for them, not for its whole bound").isBetween(200L, 3000L);
    assertThat(tasks.schedule(ran::incrementAndGet)).as("scheduling after close").isFalse();
  }

  @Test
  void closingDropsWhatFallsDueAfterTheDrainAndReturnsInBoundedTime() throws InterruptedException {
    AtomicInteger ran = new AtomicInteger();
    DelayedTasks tasks = new DelayedTasks("test-timer", Duration.ofSeconds(30), 4);
    tasks.schedule(ran::incrementAndGet);
    long started = System.nanoTime();
    tasks.close();
    long tookMillis = (System.nanoTime() - started) / 1_000_000;

    assertThat(tookMillis).as("at most the drain, not the task's delay")
        .isLessThan(DelayedTasks.DRAIN.toMillis() + 2000);
    Thread.sleep(200);
    assertThat(ran).as("due after the drain: left to the overdue sweep").hasValue(0);
  }

  @Test
  void theDefaultBoundLeavesMostOfTheStoreConnectionPoolToRequests() {
    try (DelayedTasks tasks = new DelayedTasks("test-timer", Duration.ofMillis(10))) {
      // the store driver's pool holds 100 connections by default
      assertThat(tasks.concurrency()).isEqualTo(DelayedTasks.DEFAULT_CONCURRENCY).isLessThanOrEqualTo(100 / 3);
    }
  }

  @Test
  void aBoundBelowOneIsRefused() {
    assertThatThrownBy(() -> new DelayedTasks("test-timer", Duration.ofMillis(10), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
