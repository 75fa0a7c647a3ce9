package dev.lipa.collections.stk;

import dev.lipa.collections.stk.rail.StkOutcomeHandler;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/** The STK push use cases: accept a request, list an organisation's pushes, apply a rail's outcome. */
@Service
public class StkPushes implements StkOutcomeHandler {

  private static final Logger log = LoggerFactory.getLogger(StkPushes.class);
  private static final int ID_ATTEMPTS = 3;

  private final StkPushStore store;
  private final StkIds ids;
  private final Clock clock;

  public StkPushes(StkPushStore store, StkIds ids, Clock clock) {
    this.store = store;
    this.ids = ids;
    this.clock = clock;
  }

  /**
   * Stores the push PENDING with its {@code stk.accepted} event: one store write.
   *
   * @throws StkPushStore.DuplicateReferenceException when the organisation already used the referenceId
   */
  public StkPush accept(String organisationId, StkPushRequest request) {
    UUID requestId = UUID.randomUUID();
    for (int attempt = 1; ; attempt++) {
      StkPush push = StkPush.accept(ids.next(), requestId, organisationId, request, now());
      try {
        store.insert(push);
        return push;
      } catch (StkPushStore.DuplicateIdException e) {
        if (attempt == ID_ATTEMPTS) {
          throw e;
        }
        log.warn("numeric id {} collided with another replica's; minting another", push.id());
      }
    }
  }

  public List<StkPush> list(String organisationId, int page, int size) {
    return store.list(organisationId, page, size);
  }

  public Optional<StkPush> find(String organisationId, UUID requestId) {
    return store.find(organisationId, requestId);
  }

  /**
   * Moves the push PENDING to SUCCESS or FAILED. The rail's acceptance ids and codes are written in the same update
   * as the result (the sandbox reports both together), so an outcome costs one store write; the emitted domain event
   * and callback request travel in that write too.
   */
  @Override
  public boolean apply(StkRailOutcome outcome) {
    Optional<StkPush> found = store.find(outcome.organisationId(), outcome.requestId());
    if (found.isEmpty()) {
      log.warn("outcome for unknown STK push {} of {} ignored", outcome.requestId(), outcome.organisationId());
      return false;
    }
    StkPush push = found.get();
    if (push.status() != StkStatus.PENDING) {
      log.info("late or duplicate outcome for STK push {} ({}) ignored", push.requestId(), push.status());
      return false;
    }
    RailReference reference = new RailReference(outcome.merchantRequestId(), outcome.checkoutRequestId(),
        outcome.responseCode(), outcome.responseDescription(), outcome.customerMessage());
    UUID callbackId = UUID.randomUUID();
    if (outcome.successful()) {
      push.succeed(reference, outcome.resultDescription(), outcome.receipt(), callbackId, now());
    } else {
      push.fail(reference, outcome.resultCode(), outcome.resultDescription(), callbackId, now());
    }
    boolean applied = store.complete(push);
    if (!applied) {
      log.info("another outcome completed STK push {} first; this one is ignored", push.requestId());
    }
    return applied;
  }

  /** Store times have millisecond precision: the aggregate uses the same, so what it holds is what is stored. */
  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }
}
