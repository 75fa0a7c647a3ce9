package dev.lipa.common.kafka;

import org.springframework.kafka.listener.BackOffHandler;
import org.springframework.kafka.listener.ContainerPausingBackOffHandler;
import org.springframework.kafka.listener.ListenerContainerPauseService;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Pauses a failing listener's container for its back-off and resumes it after (spring-kafka's
 * {@link ContainerPausingBackOffHandler}), on a one-thread scheduler of its own: the consumer keeps polling while paused,
 * so a long back-off never exceeds {@code max.poll.interval.ms} nor holds a thread asleep. Its scheduler is not a bean,
 * so it does not take the place of the service's own task scheduler.
 */
final class ListenerPauses implements AutoCloseable {

  // per replica by nature: it resumes this replica's own paused containers
  private final ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
  private final BackOffHandler handler;

  ListenerPauses() {
    scheduler.setPoolSize(1);
    scheduler.setDaemon(true);
    scheduler.setThreadNamePrefix("kafka-listener-resume-");
    scheduler.initialize();
    handler = new ContainerPausingBackOffHandler(new ListenerContainerPauseService(null, scheduler));
  }

  BackOffHandler handler() {
    return handler;
  }

  @Override
  public void close() {
    scheduler.shutdown();
  }
}
