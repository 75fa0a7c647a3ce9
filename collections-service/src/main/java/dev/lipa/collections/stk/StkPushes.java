package dev.lipa.collections.stk;

import dev.lipa.common.ids.RecordIds;
import dev.lipa.collections.stk.rail.StkOutcomeHandler;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import dev.lipa.common.ratelimit.RateLimitExceededException;
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

  private static final String REFERENCE_CONFLICT = "referenceId %s was already used with a different request body";
  private static final String KEY_CONFLICT = "this Idempotency-Key was already used with a different request body";

  private final StkPushStore store;
  private final RecordIds ids;
  private final Clock clock;
  private final PhonePromptLimits promptLimits;

  public StkPushes(StkPushStore store, RecordIds ids, Clock clock, PhonePromptLimits promptLimits) {
    this.store = store;
    this.ids = ids;
    this.clock = clock;
    this.promptLimits = promptLimits;
  }

  /**
   * Stores the push PENDING with its {@code stk.accepted} event: one store write. A repeat of an earlier request
   * (the same referenceId, or the same idempotency claim, with the same body) creates nothing and gives back the
   * original push, marked as a replay: the unique indexes of the store decide, so concurrent repeats create one push.
   *
   * <p>Every new push takes a prompt of the phone number's allowance ({@link PhonePromptLimits}) first; a repeat
   * prompts nobody, so it gives the prompt back, and is answered as always even when the number has had its prompts.
   * A refused push writes nothing.
   *
   * @param identity the request's body fingerprint and, with an Idempotency-Key, the claim's record key
   * @throws ReferenceConflictException when the referenceId (or the claim) was used with a different body
   * @throws RateLimitExceededException when the phone number has had its prompts for now (and this is no repeat)
   */
  public Acceptance accept(String organisationId, StkPushRequest request, StkPushStore.RequestIdentity identity) {
    PhonePromptLimits.Permit permit;
    try {
      permit = promptLimits.acquire(request.phoneNumber());
    } catch (RateLimitExceededException e) {
      return earlier(organisationId, request, identity).orElseThrow(() -> e);
    }
    try {
      Acceptance acceptance = insert(organisationId, request, identity);
      if (acceptance.replayed()) {
        permit.giveBack();
      }
      return acceptance;
    } catch (RuntimeException e) {
      permit.giveBack();
      throw e;
    }
  }

  /** The push an earlier identical request created, if this request repeats one (reads only). */
  private Optional<Acceptance> earlier(String organisationId, StkPushRequest request,
      StkPushStore.RequestIdentity identity) {
    Optional<StkPushStore.StoredPush> byKey = identity.idempotencyKey() == null ? Optional.empty()
        : store.findByIdempotencyKey(organisationId, identity.idempotencyKey());
    if (byKey.isPresent()) {
      return Optional.of(repeat(byKey, identity, KEY_CONFLICT));
    }
    if (request.referenceId() != null) {
      return store.findByReference(organisationId, request.referenceId())
          .map(stored -> repeat(Optional.of(stored), identity, REFERENCE_CONFLICT.formatted(request.referenceId())));
    }
    return Optional.empty();
  }

  private Acceptance insert(String organisationId, StkPushRequest request, StkPushStore.RequestIdentity identity) {
    UUID requestId = UUID.randomUUID();
    for (int attempt = 1; ; attempt++) {
      StkPush push = StkPush.accept(ids.next(), requestId, organisationId, request, now());
      try {
        store.insert(push, identity);
        return new Acceptance(push, false);
      } catch (StkPushStore.DuplicateIdException e) {
        if (attempt == ID_ATTEMPTS) {
          throw e;
        }
        log.warn("numeric id {} collided with another replica's; minting another", push.id());
      } catch (StkPushStore.DuplicateReferenceException e) {
        return repeat(store.findByReference(organisationId, request.referenceId()), identity,
            REFERENCE_CONFLICT.formatted(request.referenceId()));
      } catch (StkPushStore.DuplicateIdempotencyKeyException e) {
        return repeat(store.findByIdempotencyKey(organisationId, identity.idempotencyKey()), identity, KEY_CONFLICT);
      }
    }
  }

  private static Acceptance repeat(Optional<StkPushStore.StoredPush> existing, StkPushStore.RequestIdentity identity,
      String conflict) {
    // the unique index refused the insert, so the push exists; it is only missing if it was deleted by hand meanwhile
    StkPushStore.StoredPush stored = existing.orElseThrow(
        () -> new IllegalStateException("the push that holds this unique key vanished"));
    if (!identity.fingerprint().equals(stored.fingerprint())) {
      throw new ReferenceConflictException(conflict);
    }
    return new Acceptance(stored.push(), true);
  }

  public List<StkPush> list(StkListQuery query) {
    return store.list(query);
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

  /** An accepted push; {@code replayed} when it was created earlier by the same request. */
  public record Acceptance(StkPush push, boolean replayed) {
  }

  /** The request repeats a referenceId (or an idempotency claim) of an earlier push with a different body. */
  public static final class ReferenceConflictException extends RuntimeException {

    public ReferenceConflictException(String message) {
      super(message, null, false, false);
    }
  }

  /** Store times have millisecond precision: the aggregate uses the same, so what it holds is what is stored. */
  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }
}
