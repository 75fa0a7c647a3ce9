package dev.lipa.dispatcher.delivery;

import dev.lipa.common.tracing.LogContext;
import dev.lipa.dispatcher.delivery.CallbackSender.AttemptAbandoned;
import dev.lipa.dispatcher.delivery.HostGate.Pass;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes admitted attempts, each on its own virtual thread under its lease: passes the destination's
 * {@link HostGate} (a busy or failing destination defers its own callbacks and nobody else's), sends, and writes the
 * result under that lease. Owns the attempts' threads; gives each attempt's place back to the {@link Admission}.
 */
final class Attempts {

  private static final Logger log = LoggerFactory.getLogger(Attempts.class);

  private final DeliveryQueueStore queue;
  private final CallbackSender sender;
  private final RetrySchedule schedule;
  private final Admission admission;
  private final HostGate gate;
  private final DisabledEndpoints disabledEndpoints;
  private final CallbackMetrics metrics;
  private final Clock clock;
  private final Duration deferDelay;
  private final ExecutorService threads =
      Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("callback-attempt-", 0).factory());

  Attempts(DeliveryQueueStore queue, CallbackSender sender, RetrySchedule schedule, Admission admission,
      HostGate gate, DisabledEndpoints disabledEndpoints, Clock clock, Duration deferDelay, CallbackMetrics metrics) {
    this.metrics = metrics;
    this.queue = queue;
    this.sender = sender;
    this.schedule = schedule;
    this.admission = admission;
    this.gate = gate;
    this.disabledEndpoints = disabledEndpoints;
    this.clock = clock;
    this.deferDelay = deferDelay;
  }

  /** Starts the attempt of a delivery leased to it and admitted; when shutting down, gives the admission back. */
  void start(Delivery delivery) {
    try {
      threads.execute(() -> {
        Admitted admitted = new Admitted(HostGate.destination(delivery.url()));
        try {
          attempt(delivery, admitted);
        } finally {
          admitted.leave();
          admission.ended();
        }
      });
    } catch (RejectedExecutionException e) {
      // shutting down: the lease expires and the delivery is due again after the restart
      admission.release(HostGate.destination(delivery.url()));
    }
  }

  boolean stopping() {
    return threads.isShutdown();
  }

  /** When a deferred callback is due again: jittered so one destination's come back spread out, not as one burst. */
  Instant deferUntil() {
    long base = deferDelay.toMillis();
    return clock.instant().plusMillis(base / 2 + ThreadLocalRandom.current().nextLong(base));
  }

  /** Lets running attempts finish within {@code wait} (they are bounded by the request timeout), then interrupts. */
  void close(Duration wait) throws InterruptedException {
    threads.shutdown();
    if (!threads.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
      threads.shutdownNow();
    }
  }

  private void attempt(Delivery delivery, Admitted admitted) {
    try (LogContext context = LogContext.payment(delivery.organisationId(), delivery.requestId())) {
      attemptLogged(delivery, admitted);
    }
  }

  private void attemptLogged(Delivery delivery, Admitted admitted) {
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
    admitted.leave(); // before the result is written, as the destination's permit: room for the next one at once
    metrics.attempted(outcome);
    if (outcome.gone()) {
      disabledEndpoints.disable(delivery.organisationId(), delivery.url(), delivery.callbackId());
      metrics.disabledEndpoint();
      log.warn("callback endpoint {} of organisation {} answered 410 Gone: disabled until a redelivery",
          LoggedUrl.of(delivery.url()), delivery.organisationId());
    }
    recordResult(delivery, delivery.afterAttempt(outcome, startedAt, clock.instant(), schedule), outcome);
  }

  private void recordResult(Delivery delivery, Transition transition, AttemptOutcome outcome) {
    try {
      if (!queue.complete(delivery, transition)) {
        log.warn("callback {} attempt {} outlived its lease; its result was logged but the state left to the "
            + "newer attempt", delivery.callbackId(), transition.attempt().number());
      } else if (transition.status() == DeliveryStatus.DEAD) {
        metrics.died();
        log.warn("callback {} to {} is dead after {} attempts: {}", delivery.callbackId(),
            LoggedUrl.of(delivery.url()), transition.attempt().number(), transition.deadReason());
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

  private void defer(Delivery delivery) {
    try {
      queue.defer(delivery, deferUntil());
    } catch (RuntimeException e) {
      log.warn("could not defer callback {}; its lease brings it back: {}", delivery.callbackId(), e.toString());
    }
  }

  /** An attempt's place at its destination, given back once: as soon as the destination is done with it. */
  private final class Admitted {

    private final String destination;
    private boolean left;

    Admitted(String destination) {
      this.destination = destination;
    }

    void leave() {
      if (!left) {
        left = true;
        admission.leave(destination);
      }
    }
  }
}
