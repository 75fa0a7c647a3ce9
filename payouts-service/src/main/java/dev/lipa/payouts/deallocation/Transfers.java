package dev.lipa.payouts.deallocation;

import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.ledger.InsufficientBalanceException;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Allocations and de-allocations between a parent and its sub-accounts, without multi-document transactions: the
 * transfer is stored PENDING first (one write), then the payer's leg ({@code <requestId>:transfer-out}, guarded by
 * the available balance) and the payee's leg ({@code <requestId>:transfer-in}) are applied, then the transfer is
 * completed by compare-and-set. Each leg is idempotent by its movement id, so a crash anywhere leaves a PENDING
 * transfer that the resume job (every {@code lipa.payouts.ledger.repair-interval}) carries on from the start.
 */
@Service
public class Transfers implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Transfers.class);
  private final TransferStore store;
  private final Ledger ledger;
  private final Clock clock;
  private final ScheduledExecutorService resumer = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("transfer-resume").factory());

  public Transfers(TransferStore store, Ledger ledger, PayoutsProperties properties, Clock clock) {
    this.store = store;
    this.ledger = ledger;
    this.clock = clock;
    long period = properties.ledger().repairInterval().toMillis();
    resumer.scheduleWithFixedDelay(this::resumeSafely, period, period, TimeUnit.MILLISECONDS);
  }

  /** Runs a transfer to its end: SUCCESS, or FAILED when the payer's available balance does not cover it. */
  public Transfer execute(Transfer.Type type, String parentOrganisationId, String subAccountId, String initiatedBy,
      Currency currency, BigDecimal amount) {
    Instant now = now();
    Transfer transfer = new Transfer(UUID.randomUUID(), type, parentOrganisationId, subAccountId, initiatedBy,
        currency, amount, Transfer.Status.PENDING, now, now);
    store.insert(transfer);
    return carryOn(transfer);
  }

  private Transfer carryOn(Transfer transfer) {
    String id = transfer.requestId().toString();
    try {
      ledger.transferOut(transfer.payer(), transfer.currency(), id, transfer.amount());
    } catch (InsufficientBalanceException e) {
      Transfer failed = transfer.with(Transfer.Status.FAILED, now());
      store.complete(failed);
      return failed;
    }
    ledger.transferIn(transfer.payee(), transfer.currency(), id, transfer.amount());
    Transfer done = transfer.with(Transfer.Status.SUCCESS, now());
    store.complete(done);
    return done;
  }

  public List<Transfer> deallocationsOf(String subAccountId) {
    return store.deallocationsOf(subAccountId);
  }

  public List<Transfer> deallocationsUnder(String parentOrganisationId) {
    return store.deallocationsUnder(parentOrganisationId);
  }

  private void resumeSafely() {
    try {
      for (Transfer transfer : store.pendingBefore(now().minusSeconds(30), 100)) {
        log.info("resuming transfer {} a crash interrupted", transfer.requestId());
        carryOn(transfer);
      }
    } catch (RuntimeException e) {
      log.warn("transfer resume failed: {}", e.toString());
    }
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  @Override
  public void close() {
    resumer.shutdownNow();
  }
}
