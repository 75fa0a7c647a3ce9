package dev.lipa.payouts.deallocation;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.ledger.InsufficientBalanceException;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.requests.RequestConflictException;
import dev.lipa.payouts.requests.RequestIdentity;
import dev.lipa.payouts.requests.OnceOnly;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
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
 * transfer is stored PENDING first (one insert, which the unique referenceId and Idempotency-Key indexes allow once),
 * then the payer's leg ({@code <requestId>:transfer-out}, guarded by the available balance) and the payee's leg
 * ({@code <requestId>:transfer-in}) are applied, then the transfer is completed by compare-and-set. When the payer's
 * leg is refused, the transfer is deleted: nothing moved, nothing is kept.
 *
 * <p><b>Money moves once.</b> A repeated request finds the transfer the first one stored (by referenceId or
 * Idempotency-Key) and never reaches the ledger: it gets the original answer when that transfer is done, 409 while
 * it is PENDING or when its body differs. Concurrent repeats race on the insert, and only its winner moves money.
 * Each leg is idempotent by its movement id, and only the transfer's claimant (see {@link TransferStore}) completes or
 * deletes it, so a crash anywhere leaves a PENDING transfer that the resume job (every
 * {@code lipa.payouts.ledger.repair-interval}) claims once its claim has ended and carries on from the start.
 */
@Service
public class Transfers implements AutoCloseable {

  /** How long the request that stored a transfer has to finish it before the resume job may take it over. */
  static final Duration CLAIM = Duration.ofSeconds(30);
  private static final int RESUME_BATCH = 100;
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
    // on every replica, no lease: a PENDING transfer is taken over by a claim (compare-and-set) and each leg is
    // idempotent by its movement id, so two replicas resuming at once move money once (docs/operations.md, kind b)
    resumer.scheduleWithFixedDelay(this::resumeSafely, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Runs a transfer to its end, or answers a repeat of an earlier one with it.
   *
   * @throws InsufficientBalanceException when the payer's available balance does not cover it; nothing is kept
   * @throws RequestConflictException when the referenceId or key was used with another body, or its first request is
   *     still running
   */
  public OnceOnly.Result<Transfer> execute(Transfer.Type type, OrganisationId parentOrganisationId,
      OrganisationId subAccountId,
      Currency currency, BigDecimal amount, RequestIdentity identity) {
    return OnceOnly.run(identity, store::findRepeat, t -> t.status() == Transfer.Status.PENDING, () -> {
      Instant now = now();
      Transfer transfer = new Transfer(RequestId.random(), type, parentOrganisationId, subAccountId,
          identity.organisationId(), currency, amount, identity.referenceId(), Transfer.Status.PENDING, now, now);
      String claimant = UUID.randomUUID().toString();
      store.insert(transfer, identity, claimant, now.plus(CLAIM));
      return carryOn(transfer, claimant);
    });
  }

  /** Applies both legs and completes the transfer, as its claimant; see the class comment. */
  private Transfer carryOn(Transfer transfer, String claimant) {
    String id = transfer.requestId().toString();
    try {
      ledger.transferOut(transfer.payer(), transfer.currency(), id, transfer.amount());
    } catch (InsufficientBalanceException e) {
      if (store.discard(transfer, claimant)) {
        throw e;
      }
      // the resume job took the transfer over (this request outlived its claim): its end is the job's to decide
      throw RequestConflictException.takenOver();
    }
    ledger.transferIn(transfer.payee(), transfer.currency(), id, transfer.amount());
    Transfer done = transfer.with(Transfer.Status.SUCCESS, now());
    if (!store.complete(done, claimant)) {
      // both legs are in: whoever holds the claim now completes it the same way
      log.info("transfer {} is completed by the claimant that took it over", id);
    }
    return done;
  }

  public List<Transfer> deallocationsOf(OrganisationId subAccountId) {
    return store.deallocationsOf(subAccountId);
  }

  public List<Transfer> deallocationsUnder(OrganisationId parentOrganisationId) {
    return store.deallocationsUnder(parentOrganisationId);
  }

  /** Carries on the PENDING transfers whose claim ended; returns how many it took over. */
  int resume() {
    Instant now = now();
    String claimant = UUID.randomUUID().toString();
    List<Transfer> abandoned = store.claimAbandoned(now.minus(CLAIM), now, claimant, now.plus(CLAIM), RESUME_BATCH);
    for (Transfer transfer : abandoned) {
      log.info("resuming transfer {} a crash interrupted", transfer.requestId());
      try {
        carryOn(transfer, claimant);
      } catch (InsufficientBalanceException e) {
        log.info("transfer {} could not be covered on resume and was removed", transfer.requestId());
      } catch (RequestConflictException e) {
        log.info("transfer {} was taken over again", transfer.requestId());
      }
    }
    return abandoned.size();
  }

  private void resumeSafely() {
    try {
      resume();
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
