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
