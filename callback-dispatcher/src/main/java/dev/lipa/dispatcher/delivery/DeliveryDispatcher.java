package dev.lipa.dispatcher.delivery;

import dev.lipa.dispatcher.delivery.Admission.IntakeWaits;
import dev.lipa.dispatcher.delivery.DeliveryStore.Intake;
import dev.lipa.dispatcher.delivery.DeliveryStore.Lease;
import dev.lipa.dispatcher.delivery.DeliveryStore.Stored;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * Hands callback requests to their attempts: the first one right after a request is stored ({@link #acceptAll}, the
 * intake), the later ones when the poller finds them due ({@link #dispatchDue}). Who may start now is the
 * {@link Admission}'s call, the attempts themselves are {@link Attempts}'; this class stores and claims.
 */
public class DeliveryDispatcher implements DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(DeliveryDispatcher.class);

  private final DeliveryStore store;
  private final DeliveryQueueStore queue;
  private final Admission admission;
  private final Attempts attempts;
  private final DisabledEndpoints disabledEndpoints;
  private final Clock clock;
  private final DispatcherProperties properties;

  DeliveryDispatcher(DeliveryStore store, DeliveryQueueStore queue, Admission admission, Attempts attempts,
      DisabledEndpoints disabledEndpoints, Clock clock, DispatcherProperties properties) {
    this.store = store;
    this.queue = queue;
    this.admission = admission;
    this.attempts = attempts;
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
   * free and its destination has room ({@link Admission#hasRoom}). When that is not so the requests gathered so far
   * are stored and started first, which frees room, and the intake waits up to {@code hostPermitWait} for room: so a
   * backlog stays in Kafka, where it costs no store writes, instead of going through the store and the poller. A
   * destination still full after that wait (a slow merchant), or whose circuit is open, costs this poll no further
   * wait: its callbacks are stored unleased and due a little later, for the poller, and everyone else's keep flowing.
   * When no global slot frees in time, the rest of the poll is stored due now for the poller.
   */
  public void acceptAll(List<CallbackRequest> requests) {
    IntakeWaits waits = admission.intakeWaits();
    Set<String> full = new HashSet<>();
    boolean slotsExhausted = false;
    List<Intake> gathered = new ArrayList<>();
    for (int index = 0; index < requests.size(); index++) {
      CallbackRequest request = requests.get(index);
      String destination = HostGate.destination(request.url());
      boolean admitted = false;
      if (!slotsExhausted && !full.contains(destination)) {
        admitted = admission.tryAdmit(destination);
        if (!admitted && !admission.circuitOpen(destination)) {
          // store what is gathered first: its attempts may be what holds the room
          store(gathered);
          gathered.clear();
          admitted = admission.awaitAdmission(destination, requests.size() - index, waits);
        }
        if (admitted) {
          waits.admitted(destination);
        } else if (admission.hasRoom(destination)) {
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
        gathered.add(new Intake(request, now, full.contains(destination) ? attempts.deferUntil() : now, null));
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
      intakes.stream().filter(i -> i.lease() != null)
          .forEach(i -> admission.release(HostGate.destination(i.request().url())));
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
          attempts.start(Delivery.accepted(request, intake.lease().token()));
        } else {
          admission.release(HostGate.destination(request.url()));
        }
      }
    }
  }

  /**
   * Claims due deliveries and starts their attempts while slots are free; returns how many it started. Deliveries to
   * a blocked destination are not claimed but pushed back together, so one hanging merchant's backlog never heads
   * the queue in front of everyone else's.
   */
  int dispatchDue() {
    disabledEndpoints.refreshIfStale();
    int free = admission.freeSlots();
    if (free == 0 || attempts.stopping()) {
      return 0;
    }
    Instant now = clock.instant();
    List<DeliveryQueueStore.Due> due = queue.findDue(now, Math.max(free * 4, 64));
    List<String> blocked = new ArrayList<>();
    int started = 0;
    for (DeliveryQueueStore.Due candidate : due) {
      String destination = HostGate.destination(candidate.url());
      if (!admission.hasRoom(destination)) {
        blocked.add(candidate.callbackId());
        continue;
      }
      if (started >= free || attempts.stopping() || !admission.tryAdmit(destination)) {
        continue;
      }
      Optional<Delivery> claimed;
      try {
        claimed = queue.claim(candidate.callbackId(), clock.instant(), newLease(clock.instant()));
      } catch (RuntimeException e) {
        admission.release(destination);
        throw e;
      }
      if (claimed.isEmpty()) {
        admission.release(destination); // another replica got it first
        continue;
      }
      attempts.start(claimed.get());
      started++;
    }
    queue.postpone(blocked, now, attempts.deferUntil());
    return started;
  }

  private Lease newLease(Instant now) {
    return new Lease(UUID.randomUUID().toString(), now.plus(properties.leaseDuration()));
  }

  /**
   * Stops admitting (an intake waiting for room gives up), then lets running attempts finish (they are bounded by the
   * request timeout) so a clean stop re-sends nothing.
   */
  @Override
  public void destroy() throws InterruptedException {
    admission.close();
    attempts.close(properties.requestTimeout().plus(Duration.ofSeconds(1)));
  }
}
