package dev.lipa.dispatcher.delivery;

import dev.lipa.dispatcher.delivery.CallbackSender.AttemptAbandoned;
import dev.lipa.dispatcher.delivery.DeliveryStore.Lease;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * Runs callback attempts: the first one right after a request is stored, the later ones when the poller finds them
 * due. Each attempt runs on its own virtual thread under a lease, and its result is written under that lease.
 */
public class DeliveryDispatcher implements DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(DeliveryDispatcher.class);

  private final DeliveryStore store;
  private final CallbackSender sender;
  private final RetrySchedule schedule;
  private final AttemptSlots slots;
  private final Clock clock;
  private final DispatcherProperties properties;
  private final ExecutorService attempts =
      Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("callback-attempt-", 0).factory());

  DeliveryDispatcher(DeliveryStore store, CallbackSender sender, RetrySchedule schedule, AttemptSlots slots,
      Clock clock, DispatcherProperties properties) {
    this.store = store;
    this.sender = sender;
    this.schedule = schedule;
    this.slots = slots;
    this.clock = clock;
    this.properties = properties;
  }

  /**
   * Stores a requested callback (once, however often it is requested) and, when it is new and a slot is free, makes
   * its first attempt at once. Returns when the request is stored, not when it is delivered: the caller may then
   * acknowledge the request. When every slot is busy the delivery is stored due now and the poller picks it up.
   */
  public void accept(CallbackRequest request) {
    boolean slot = slots.tryAcquire();
    Instant now = clock.instant();
    Optional<Lease> lease = slot ? Optional.of(newLease(now)) : Optional.empty();
    boolean created;
    try {
      created = store.insertIfAbsent(request, now, lease);
    } catch (RuntimeException e) {
      releaseIf(slot);
      throw e;
    }
    if (created && slot) {
      start(Delivery.accepted(request, lease.get().token()));
    } else {
      releaseIf(slot);
    }
  }

  /** Claims due deliveries and starts their attempts while slots are free; returns how many it started. */
  int dispatchDue() {
    int started = 0;
    while (!attempts.isShutdown() && slots.tryAcquire()) {
      Optional<Delivery> claimed;
      try {
        Instant now = clock.instant();
        claimed = store.claimDue(now, newLease(now));
      } catch (RuntimeException e) {
        slots.release();
        throw e;
      }
      if (claimed.isEmpty()) {
        slots.release();
        break;
      }
      start(claimed.get());
      started++;
    }
    return started;
  }

  private void start(Delivery delivery) {
    try {
      attempts.execute(() -> {
        try {
          attempt(delivery);
        } finally {
          slots.release();
        }
      });
    } catch (RejectedExecutionException e) {
      slots.release(); // shutting down: the lease expires and the delivery is due again after the restart
    }
  }

  private void attempt(Delivery delivery) {
    Instant startedAt = clock.instant();
    AttemptOutcome outcome;
    try {
      outcome = sender.send(delivery);
    } catch (AttemptAbandoned e) {
      return;
    }
    Transition transition = delivery.afterAttempt(outcome, startedAt, clock.instant(), schedule);
    try {
      if (!store.complete(delivery, transition)) {
        log.warn("callback {} attempt {} outlived its lease; its result was logged but the state left to the "
            + "newer attempt", delivery.callbackId(), transition.attempt().number());
      } else if (transition.status() == DeliveryStatus.DEAD) {
        log.warn("callback {} to {} is dead after {} attempts, last error: {}", delivery.callbackId(),
            delivery.url(), transition.attempt().number(), outcome.error());
      } else if (log.isDebugEnabled()) {
        log.debug("callback {} attempt {}: {}", delivery.callbackId(), transition.attempt().number(),
            outcome.succeeded() ? "delivered" : outcome.error());
      }
    } catch (RuntimeException e) {
      // at least once: the lease expires and the delivery is attempted again
      log.error("could not record attempt {} of callback {}", transition.attempt().number(), delivery.callbackId(),
          e);
    }
  }

  private Lease newLease(Instant now) {
    return new Lease(UUID.randomUUID().toString(), now.plus(properties.leaseDuration()));
  }

  private void releaseIf(boolean slot) {
    if (slot) {
      slots.release();
    }
  }

  /** Lets running attempts finish (they are bounded by the request timeout) so a clean stop re-sends nothing. */
  @Override
  public void destroy() throws InterruptedException {
    attempts.shutdown();
    if (!attempts.awaitTermination(properties.requestTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS)) {
      attempts.shutdownNow();
    }
  }
}
