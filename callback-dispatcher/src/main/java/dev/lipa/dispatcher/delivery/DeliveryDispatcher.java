package dev.lipa.dispatcher.delivery;

import dev.lipa.dispatcher.delivery.CallbackSender.AttemptAbandoned;
import dev.lipa.dispatcher.delivery.DeliveryStore.Intake;
import dev.lipa.dispatcher.delivery.DeliveryStore.Lease;
import dev.lipa.dispatcher.delivery.DeliveryStore.Stored;
import dev.lipa.dispatcher.delivery.HostGate.Pass;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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

  /** The most one intake poll waits for room in all, far inside Kafka's max.poll.interval. */
  private static final Duration MAX_INTAKE_WAIT = Duration.ofSeconds(3);
  /**
   * The pace (200 callbacks/s) a destination must keep for the intake to go on waiting for its room. Lenient enough
   * that a fast receiver on a CPU-starved machine is still waited for: a request the intake gives up on costs a
   * claim, and the poller works through a single destination's backlog far slower than the intake does.
   */
  private static final Duration MIN_PACE = Duration.ofMillis(5);
  /** How long, once there is some room, the intake waits for more to store the next part of a poll in one write. */
  private static final Duration CHUNK_WAIT = Duration.ofMillis(20);
  private static final Duration ADMISSION_RECHECK = Duration.ofMillis(1);

  private final DeliveryStore store;
  private final CallbackSender sender;
  private final RetrySchedule schedule;
  private final AttemptSlots slots;
  private final HostGate gate;
  private final DisabledEndpoints disabledEndpoints;
  private final Clock clock;
  private final DispatcherProperties properties;
  /** Attempts admitted and not yet ended, per destination: reserved at intake or claim, waiting or in flight. */
  private final Map<String, Integer> underWay = new ConcurrentHashMap<>();
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
   * Stores the callback requests of one intake poll (each once, however often it is requested) with one bulk write,
   * and makes the first attempt of each new one at once. Returns when the requests are stored, not when they are
   * delivered: the caller may then acknowledge them.
   *
   * <p>A request is stored already leased to its first attempt (no claim write) when it is admitted: a global slot is
   * free and its destination has room ({@link #hasRoom}). When that is not so the requests gathered so far are stored
   * and started first, which frees room, and the intake waits up to {@code hostPermitWait} for room: so a backlog
   * stays in Kafka, where it costs no store writes, instead of going through the store and the poller. A destination
   * still full after that wait (a slow merchant), or whose circuit is open, costs this poll no further wait: its
   * callbacks are stored unleased and due a little later, for the poller, and everyone else's keep flowing. When no
   * global slot frees in time, the rest of the poll is stored due now for the poller.
   */
  public void acceptAll(List<CallbackRequest> requests) {
    IntakeWaits waits = new IntakeWaits();
    Set<String> full = new HashSet<>();
    boolean slotsExhausted = false;
    List<Intake> gathered = new ArrayList<>();
    for (int index = 0; index < requests.size(); index++) {
      CallbackRequest request = requests.get(index);
      String destination = HostGate.destination(request.url());
      boolean admitted = false;
      if (!slotsExhausted && !full.contains(destination)) {
        admitted = tryAdmit(destination);
        if (!admitted && !gate.isOpen(destination)) {
          // store what is gathered first: its attempts may be what holds the room
          store(gathered);
          gathered.clear();
          admitted = awaitAdmission(destination, requests.size() - index, waits);
        }
        if (admitted) {
          waits.admitted(destination);
        } else if (hasRoom(destination)) {
          slotsExhausted = true;
        } else {
          full.add(destination);
        }
      }
      Instant now = clock.instant();
      if (admitted) {
        gathered.add(new Intake(request, now, now, newLease(now)));
      } else {
        // a destination without room gets its callback due a little later, not at the head of the poller's queue
        gathered.add(new Intake(request, now, full.contains(destination) ? deferUntil() : now, null));
      }
    }
    store(gathered);
  }

  /** Stores gathered requests and starts the attempts of the leased ones that are new. */
  private void store(List<Intake> intakes) {
    if (intakes.isEmpty()) {
      return;
    }
    List<Stored> stored;
    try {
      stored = this.store.insertAll(intakes);
    } catch (RuntimeException e) {
      // anything leased and stored anyway is attempted by the poller once its lease expires
      intakes.stream().filter(i -> i.lease() != null).forEach(i -> release(HostGate.destination(i.request().url())));
      throw e;
    }
    for (int i = 0; i < intakes.size(); i++) {
      Intake intake = intakes.get(i);
      CallbackRequest request = intake.request();
      if (stored.get(i) == Stored.CONFLICT) {
        // retrying cannot fix this; skipping it keeps the partition flowing (the producer's bug is in the log)
        log.error("skipping callback request {}: callbackId {} already belongs to another organisation",
            request.eventId(), request.callbackId());
      }
      if (intake.lease() != null) {
        if (stored.get(i) == Stored.CREATED) {
          start(Delivery.accepted(request, intake.lease().token()));
        } else {
          release(HostGate.destination(request.url()));
        }
      }
    }
  }

  /**
   * Whether one more attempt to this destination can be handed out now without being deferred at its gate: its
   * circuit is not open and fewer attempts to it are under way (reserved, waiting or in flight) than it lets in or
   * wait. Counting reserved ones too keeps a burst of one poll from overshooting before its attempts reach the gate.
   */
  private boolean hasRoom(String destination) {
    return room(destination) > 0;
  }

  /** Takes a global slot and a place at the destination, if both are free. */
  private boolean tryAdmit(String destination) {
    if (!hasRoom(destination) || !slots.tryAcquire()) {
      return false;
    }
    underWay.merge(destination, 1, Integer::sum);
    return true;
  }

  /**
   * Waits for room at the destination and a free slot. Once there is some room it still waits a moment for room for
   * a good part of what is left of the poll, so that the poll is stored in a few bulk writes, not one per request.
   * Time spent with no room at all counts against the destination's allowance ({@link IntakeWaits}).
   */
  private boolean awaitAdmission(String destination, int left, IntakeWaits waits) {
    int wanted = Math.max(1, Math.min(left, gate.capacity() / 2));
    long start = System.nanoTime();
    long last = start;
    while (!attempts.isShutdown() && !gate.isOpen(destination)) {
      long now = System.nanoTime();
      int room = Math.min(room(destination), slots.available());
      if (room == 0) {
        if (waits.spend(destination, now - last)) {
          return false;
        }
      } else if ((room >= wanted || now - start >= CHUNK_WAIT.toNanos()) && tryAdmit(destination)) {
        return true;
      }
      last = now;
      LockSupport.parkNanos(ADMISSION_RECHECK.toNanos());
    }
    return false;
  }

  /**
   * How long one intake poll may wait for room, per destination and in all. A destination may hold the poll up for
   * {@code hostPermitWait}, plus {@link #MIN_PACE} for each of its callbacks admitted in this poll: one that keeps
   * pace with the intake is waited for (its backlog stays in Kafka), a slow or hanging one soon is not, and its
   * callbacks go to the store for the poller so that everyone else's keep flowing.
   */
  private final class IntakeWaits {

    private final Map<String, long[]> perDestination = new HashMap<>();
    private long total;

    void admitted(String destination) {
      perDestination.computeIfAbsent(destination, d -> new long[2])[1]++;
    }

    /** Records time spent without room; true when the destination's (or the poll's) allowance is used up. */
    boolean spend(String destination, long nanos) {
      long[] spentAndAdmitted = perDestination.computeIfAbsent(destination, d -> new long[2]);
      spentAndAdmitted[0] += nanos;
      total += nanos;
      long allowance = properties.hostPermitWait().toNanos() + spentAndAdmitted[1] * MIN_PACE.toNanos();
      return spentAndAdmitted[0] >= allowance || total >= MAX_INTAKE_WAIT.toNanos();
    }
  }

  private int room(String destination) {
    return gate.isBlocked(destination) ? 0 : gate.capacity() - underWay.getOrDefault(destination, 0);
  }

  /** Gives back what {@link #tryAdmit} took, when the attempt never starts. */
  private void release(String destination) {
    leave(destination);
    slots.release();
  }

  /** The attempt is done with its destination (its permit there is back); its global slot may still be held. */
  private void leave(String destination) {
    underWay.computeIfPresent(destination, (d, n) -> n <= 1 ? null : n - 1);
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
      String destination = HostGate.destination(candidate.url());
      if (!hasRoom(destination)) {
        blocked.add(candidate.callbackId());
        continue;
      }
      if (started >= free || attempts.isShutdown() || !tryAdmit(destination)) {
        continue;
      }
      Optional<Delivery> claimed;
      try {
        claimed = store.claim(candidate.callbackId(), clock.instant(), newLease(clock.instant()));
      } catch (RuntimeException e) {
        release(destination);
        throw e;
      }
      if (claimed.isEmpty()) {
        release(destination); // another replica got it first
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
        Admitted admitted = new Admitted(HostGate.destination(delivery.url()));
        try {
          attempt(delivery, admitted);
        } finally {
          admitted.leave();
          slots.release();
        }
      });
    } catch (RejectedExecutionException e) {
      // shutting down: the lease expires and the delivery is due again after the restart
      release(HostGate.destination(delivery.url()));
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
        DeliveryDispatcher.this.leave(destination);
      }
    }
  }

  private void attempt(Delivery delivery, Admitted admitted) {
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

  /** Lets running attempts finish (they are bounded by the request timeout) so a clean stop re-sends nothing. */
  @Override
  public void destroy() throws InterruptedException {
    attempts.shutdown();
    if (!attempts.awaitTermination(properties.requestTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS)) {
      attempts.shutdownNow();
    }
  }
}
