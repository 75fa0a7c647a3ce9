package dev.lipa.payouts.topup;

import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.ledger.Balance;
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
 * Sandbox top-ups, each moving money once: the top-up is stored PENDING first (one insert, which the unique
 * referenceId and Idempotency-Key indexes allow once), then its ledger movement ({@code <requestId>:top-up},
 * idempotent) is applied, then it is marked APPLIED with the balance after it. A repeated request finds the stored
 * top-up and never reaches the ledger: the original answer once APPLIED, 409 while PENDING or when its body differs.
 * A crash between the steps leaves a PENDING top-up that the resume job (every
 * {@code lipa.payouts.ledger.repair-interval}) claims once its claim has ended and carries on.
 */
@Service
public class TopUps implements AutoCloseable {

  /** How long the request that stored a top-up has to finish it before the resume job may take it over. */
  static final Duration CLAIM = Duration.ofSeconds(30);
  private static final int RESUME_BATCH = 100;
  private static final Logger log = LoggerFactory.getLogger(TopUps.class);

  private final TopUpStore store;
  private final Ledger ledger;
  private final Clock clock;
  private final ScheduledExecutorService resumer = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("top-up-resume").factory());

  TopUps(TopUpStore store, Ledger ledger, PayoutsProperties properties, Clock clock) {
    this.store = store;
    this.ledger = ledger;
    this.clock = clock;
    long period = properties.ledger().repairInterval().toMillis();
    // on every replica, no lease: a PENDING top-up is taken over by a claim (compare-and-set) and its movement is
    // idempotent by its id, so two replicas resuming at once move money once (docs/operations.md, kind b)
    resumer.scheduleWithFixedDelay(this::resumeSafely, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Adds {@code amount} of {@code currency} to the caller's account, or answers a repeat of an earlier top-up with it.
   *
   * @throws RequestConflictException when the referenceId or key was used with another body, or its first request is
   *     still running
   */
  public OnceOnly.Result<TopUp> topUp(Currency currency, BigDecimal amount, RequestIdentity identity) {
    return OnceOnly.run(identity, store::findRepeat, t -> t.status() == TopUp.Status.PENDING, () -> {
      Instant now = now();
      TopUp topUp = new TopUp(RequestId.random(), identity.organisationId(), currency, amount, identity.referenceId(),
          TopUp.Status.PENDING, null, now, now);
      String claimant = UUID.randomUUID().toString();
      store.insert(topUp, identity, claimant, now.plus(CLAIM));
      return carryOn(topUp, claimant);
    });
  }

  private TopUp carryOn(TopUp topUp, String claimant) {
    Balance after = ledger.topUp(topUp.organisationId(), topUp.currency(), topUp.requestId().toString(),
        topUp.amount());
    TopUp applied = topUp.applied(after, now());
    if (!store.complete(applied, claimant)) {
      log.info("top-up {} is completed by the claimant that took it over", topUp.requestId());
    }
    return applied;
  }

  /** Carries on the PENDING top-ups whose claim ended; returns how many it took over. */
  int resume() {
    Instant now = now();
    String claimant = UUID.randomUUID().toString();
    List<TopUp> abandoned = store.claimAbandoned(now.minus(CLAIM), now, claimant, now.plus(CLAIM), RESUME_BATCH);
    for (TopUp topUp : abandoned) {
      log.info("resuming top-up {} a crash interrupted", topUp.requestId());
      carryOn(topUp, claimant);
    }
    return abandoned.size();
  }

  private void resumeSafely() {
    try {
      resume();
    } catch (RuntimeException e) {
      log.warn("top-up resume failed: {}", e.toString());
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
