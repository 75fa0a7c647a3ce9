package dev.lipa.dispatcher.delivery;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Every poll interval, starts the deliveries that are due: retries whose wait is over, and deliveries whose lease
 * expired because the process that held it died mid-attempt. Because the schedule lives in the store, this is what
 * makes it survive restarts. Safe with several replicas: each claim is atomic.
 */
class DeliveryPoller implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(DeliveryPoller.class);

  private final DeliveryDispatcher dispatcher;
  private final DispatcherProperties properties;
  private ScheduledExecutorService timer;

  DeliveryPoller(DeliveryDispatcher dispatcher, DispatcherProperties properties) {
    this.dispatcher = dispatcher;
    this.properties = properties;
  }

  @Override
  public synchronized void start() {
    timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("delivery-poller").daemon().factory());
    long interval = properties.pollInterval().toMillis();
    timer.scheduleWithFixedDelay(this::poll, interval, interval, TimeUnit.MILLISECONDS);
  }

  private void poll() {
    try {
      dispatcher.dispatchDue();
    } catch (RuntimeException e) {
      // never let one failure (the store unreachable) cancel the schedule; the next tick tries again
      log.warn("polling for due callbacks failed: {}", e.toString());
    }
  }

  @Override
  public synchronized void stop() {
    if (timer != null) {
      timer.shutdownNow();
      timer = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return timer != null;
  }
}
