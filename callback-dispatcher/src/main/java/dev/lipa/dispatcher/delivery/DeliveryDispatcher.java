package dev.lipa.dispatcher.delivery;

import dev.lipa.dispatcher.delivery.CallbackSender.AttemptAbandoned;
import dev.lipa.dispatcher.delivery.DeliveryStore.Lease;
import dev.lipa.dispatcher.delivery.HostGate.Pass;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * Runs callback attempts: the first one right after a request is stored, the later ones when the poller finds them
 * due. Each attempt runs on its own virtual thread under a lease, and its result is written under that lease. Before
 * an attempt it passes its destination's {@link HostGate}; a busy or failing destination defers its own callbacks
 * and nobody else's.
 */
public class DeliveryDispatcher implements DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(DeliveryDispatcher.class);

  private final DeliveryStore store;
  private final CallbackSender sender;
  private final RetrySchedule schedule;
  private final AttemptSlots slots;
  private final HostGate gate;
  private final DisabledEndpoints disabledEndpoints;
  private final Clock clock;
  private final DispatcherProperties properties;
  private final ExecutorService attempts =
      Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("callback-attempt-", 0).factory());

  DeliveryDispatcher(DeliveryStore store, CallbackSender sender, RetrySchedule schedule, AttemptSlots slots,
      HostGate gate, DisabledEndpoints disabledEndpoints, Clock clock, DispatcherProperties properties) {
    this.store = store;
    this.sender = sender;
    this.schedule = schedule;
    this.slots = slots;
    this.gate = gate;
    this.disabledEndpoints = disabledEndpoints;
    this.clock = clock;
    this.properties = properties;
  }

  /**
   * Stores a requested callback (once, however often it is requested) and, when it is new and a slot is free, makes
   * its first attempt at once. Returns when the request is stored, not when it is delivered: the caller may then
   * acknowledge the request. When every slot is busy the delivery is stored due now and the poller picks it up.
   */
  public void accept(CallbackRequest request) {
    // a blocked destination gets no slot: its callback is stored due a little later instead of being deferred
    boolean blocked = gate.isBlocked(HostGate.destination(request.url()));
    boolean slot = !blocked && slots.tryAcquire();
    Instant now = clock.instant();
    Optional<Lease> lease = slot ? Optional.of(newLease(now)) : Optional.empty();
    boolean created;
    try {
      created = store.insertIfAbsent(request, now, blocked ? deferUntil() : now, lease);
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

  /**
   * Schedules a fresh round of attempts now for a merchant's callback (any state), and re-enables its URL if a
   * 410 Gone had disabled it: asking for a redelivery is how a merchant says the endpoint is back.
   *
   * @return empty when the organisation has no callback with this id
   */
  public Optional<DeliveryView> redeliver(String organisationId, String callbackId) {
    return store.reschedule(organisationId, callbackId, false, clock.instant()).map(this::reenable);
  }

  /** An operator's replay of a dead letter: as a redelivery, for any organisation, only when the callback is DEAD. */
  public Optional<DeliveryView> replay(String callbackId) {
    return store.reschedule(null, callbackId, true, clock.instant()).map(this::reenable);
  }

  private DeliveryView reenable(DeliveryView view) {
    if (disabledEndpoints.enable(view.organisationId(), view.url())) {
      log.info("callback endpoint {} of organisation {} re-enabled by the redelivery of {}", view.url(),
          view.organisationId(), view.callbackId());
    }
    return view;
  }

  /**
   * Claims due deliveries and starts their attempts while slots are free; returns how many it started. Deliveries to
   * a blocked destination are not claimed but pushed back together, so one hanging merchant's backlog never heads
   * the queue in front of everyone else's.
   */
  int dispatchDue() {
    disabledEndpoints.refreshIfStale();
    int free = slots.available();
    if (free == 0 || attempts.isShutdown()) {
      return 0;
    }
    Instant now = clock.instant();
    List<DeliveryStore.Due> due = store.findDue(now, Math.max(free * 4, 64));
    List<String> blocked = new ArrayList<>();
    int started = 0;
    for (DeliveryStore.Due candidate : due) {
      if (gate.isBlocked(HostGate.destination(candidate.url()))) {
        blocked.add(candidate.callbackId());
        continue;
      }
      if (started >= free || attempts.isShutdown() || !slots.tryAcquire()) {
        continue;
      }
      Optional<Delivery> claimed;
      try {
        claimed = store.claim(candidate.callbackId(), clock.instant(), newLease(clock.instant()));
      } catch (RuntimeException e) {
        slots.release();
        throw e;
      }
      if (claimed.isEmpty()) {
        slots.release(); // another replica, or the intake's own first attempt, got it first
        continue;
      }
      start(claimed.get());
      started++;
    }
    store.postpone(blocked, now, deferUntil());
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
    if (disabledEndpoints.isDisabled(delivery.organisationId(), delivery.url())) {
      recordResult(delivery, delivery.endpointDisabled(clock.instant()), null);
      return;
    }
    Optional<Pass> pass;
    try {
      pass = gate.tryEnter(HostGate.destination(delivery.url()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return; // shutting down: the lease brings it back
    }
    if (pass.isEmpty()) {
      defer(delivery);
      return;
    }
    Instant startedAt = clock.instant();
    AttemptOutcome outcome;
    try {
      outcome = sender.send(delivery);
    } catch (AttemptAbandoned e) {
      pass.get().abandoned();
      return;
    } catch (RuntimeException e) {
      // nothing was sent (the signing secret could not be read, say): not the merchant's failure, try again soon
      pass.get().abandoned();
      log.warn("callback {} not sent, deferred: {}", delivery.callbackId(), e.toString());
      defer(delivery);
      return;
    }
    if (outcome.hostFailure()) {
      pass.get().failed(outcome.error());
    } else {
      pass.get().succeeded();
    }
    if (outcome.gone()) {
      disabledEndpoints.disable(delivery.organisationId(), delivery.url(), delivery.callbackId());
      log.warn("callback endpoint {} of organisation {} answered 410 Gone: disabled until a redelivery",
          delivery.url(), delivery.organisationId());
    }
    recordResult(delivery, delivery.afterAttempt(outcome, startedAt, clock.instant(), schedule), outcome);
  }

  private void recordResult(Delivery delivery, Transition transition, AttemptOutcome outcome) {
    try {
      if (!store.complete(delivery, transition)) {
        log.warn("callback {} attempt {} outlived its lease; its result was logged but the state left to the "
            + "newer attempt", delivery.callbackId(), transition.attempt().number());
      } else if (transition.status() == DeliveryStatus.DEAD) {
        log.warn("callback {} to {} is dead after {} attempts: {}", delivery.callbackId(), delivery.url(),
            transition.attempt().number(), transition.deadReason());
      } else if (log.isDebugEnabled()) {
        log.debug("callback {} attempt {}: {}", delivery.callbackId(), transition.attempt().number(),
            outcome != null && outcome.succeeded() ? "delivered" : transition.attempt().error());
      }
    } catch (RuntimeException e) {
      // at least once: the lease expires and the delivery is attempted again
      log.error("could not record attempt {} of callback {}", transition.attempt().number(), delivery.callbackId(),
          e);
    }
  }

  private Instant deferUntil() {
    long base = properties.deferDelay().toMillis();
    // jittered so deferred callbacks of one destination come back spread out, not as one burst
    return clock.instant().plusMillis(base / 2 + ThreadLocalRandom.current().nextLong(base));
  }

  private void defer(Delivery delivery) {
    try {
      store.defer(delivery, deferUntil());
    } catch (RuntimeException e) {
      log.warn("could not defer callback {}; its lease brings it back: {}", delivery.callbackId(), e.toString());
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
