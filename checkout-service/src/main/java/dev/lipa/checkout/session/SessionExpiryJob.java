package dev.lipa.checkout.session;

import dev.lipa.checkout.CheckoutProperties;
import jakarta.annotation.PreDestroy;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Expires sessions past their lifetime every {@code lipa.checkout.expiry-sweep-interval}, so the merchant's callback
 * and the expired event go out even if nobody opens the session again. Every replica runs it: each expiry is a
 * compare-and-set, so two replicas expiring the same session write it once. Reads and attempts check expiry too.
 */
@Component
class SessionExpiryJob {

  private static final Logger log = LoggerFactory.getLogger(SessionExpiryJob.class);
  private static final int BATCH = 200;

  private final CheckoutSessions sessions;
  private final CheckoutProperties properties;
  private ScheduledExecutorService executor;

  SessionExpiryJob(CheckoutSessions sessions, CheckoutProperties properties) {
    this.sessions = sessions;
    this.properties = properties;
  }

  @EventListener(ApplicationReadyEvent.class)
  synchronized void start() {
    if (executor != null) {
      return;
    }
    executor = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().daemon().name("checkout-expiry").factory());
    long period = properties.expirySweepInterval().toMillis();
    executor.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
  }

  void sweep() {
    try {
      int expired = sessions.expireDue(BATCH);
      if (expired > 0) {
        log.info("expired {} checkout session(s)", expired);
      }
    } catch (RuntimeException e) {
      log.warn("checkout expiry sweep failed: {}", e.toString());
    }
  }

  @PreDestroy
  synchronized void stop() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }
}
