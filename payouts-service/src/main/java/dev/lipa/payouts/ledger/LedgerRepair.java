package dev.lipa.payouts.ledger;

import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.PayoutsProperties;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The ledger's repair job, on its own thread every {@code repairInterval}: copies entries a crash left in account
 * documents to the journal, and releases reservations that no payout owns (a crash between the reservation and the
 * payout's insert). Both are safe on every replica at once: the copy is an unordered insert of entries with fixed ids,
 * and a release is the ledger's own guarded movement, applied once whoever applies it.
 */
final class LedgerRepair implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LedgerRepair.class);
  private static final int BATCH = 200;

  private final LedgerStore store;
  private final ObjectProvider<ReservationOwners> owners;
  private final PayoutsProperties.Ledger settings;
  private final Predicate<Movement> release;
  private final Supplier<Instant> clock;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("ledger-repair").factory());

  /**
   * @param release applies a release movement through the ledger's rules; true when it was applied now
   * @param clock the ledger's time (milliseconds, as the store keeps them)
   */
  LedgerRepair(LedgerStore store, ObjectProvider<ReservationOwners> owners, PayoutsProperties.Ledger settings,
      Predicate<Movement> release, Supplier<Instant> clock) {
    this.store = store;
    this.owners = owners;
    this.settings = settings;
    this.release = release;
    this.clock = clock;
    long period = settings.repairInterval().toMillis();
    thread.scheduleWithFixedDelay(this::runSafely, period, period, TimeUnit.MILLISECONDS);
  }

  /** One pass; returns how many reservations it released. */
  int run() {
    Instant now = clock.get();
    store.copyStalePending(now.minus(settings.repairInterval()), BATCH);
    ReservationOwners owner = owners.getIfAvailable();
    if (owner == null) {
      return 0;
    }
    int released = 0;
    for (Hold hold : store.holdsOlderThan(now.minus(settings.orphanAfter()), BATCH)) {
      if (!ownedByAPayout(owner, hold)) {
        log.warn("releasing reservation {} of {} {}: no payout owns it", hold.requestId(), hold.organisationId(),
            hold.currency());
        if (release.test(new Movement(hold.organisationId(), hold.currency(), MovementKind.RELEASE, hold.requestId(),
            hold.amount()))) {
          released++;
        }
      }
    }
    return released;
  }

  /** A hold's requestId is a payout's (only a reservation holds); text that is no UUID can belong to no payout. */
  private static boolean ownedByAPayout(ReservationOwners owner, Hold hold) {
    RequestId requestId;
    try {
      requestId = RequestId.of(UUID.fromString(hold.requestId()));
    } catch (IllegalArgumentException e) {
      return false;
    }
    return owner.owns(hold.organisationId(), requestId);
  }

  private void runSafely() {
    try {
      run();
    } catch (RuntimeException e) {
      log.warn("ledger repair failed: {}", e.toString());
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
