package dev.lipa.collections.stk;

import dev.lipa.collections.stk.rail.StkOutcomeHandler;
import dev.lipa.collections.stk.rail.StkRail;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RecordIds;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.metrics.PaymentKind;
import dev.lipa.common.metrics.PaymentMetrics;
import dev.lipa.common.once.CreateOnce;
import dev.lipa.common.once.Creation;
import dev.lipa.common.once.Earlier;
import dev.lipa.common.once.Origin;
import dev.lipa.common.rail.RailUnavailableException;
import dev.lipa.common.ratelimit.RateLimitExceededException;
import dev.lipa.common.tracing.LogContext;
import dev.lipa.common.web.FieldErrors;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/** The STK push use cases: accept a request, list an organisation's pushes, apply a rail's outcome. */
@Service
public class StkPushes implements StkOutcomeHandler {

  private static final Logger log = LoggerFactory.getLogger(StkPushes.class);

  private final StkPushStore store;
  private final RecordIds ids;
  private final Clock clock;
  private final PhonePromptLimits promptLimits;
  private final PaymentMetrics metrics;
  private final ObjectProvider<StkRail> rails;
  private final StackEnvironment stack;
  private final AcceptedPushes accepted = new AcceptedPushes();

  public StkPushes(StkPushStore store, RecordIds ids, Clock clock, PhonePromptLimits promptLimits,
      PaymentMetrics metrics, ObjectProvider<StkRail> rails, StackEnvironment stack) {
    this.store = store;
    this.rails = rails;
    this.stack = stack;
    this.ids = ids;
    this.clock = clock;
    this.promptLimits = promptLimits;
    this.metrics = metrics.declare(PaymentKind.STK_PUSH, Arrays.stream(StkCurrency.values())
        .map(currency -> currency.country().region()).toArray(String[]::new));
  }

  /**
   * Stores the push PENDING with its {@code stk.accepted} event: one store write. A repeat of an earlier request
   * (the same referenceId, or the same idempotency claim, with the same body) creates nothing and gives back the
   * original push ({@link Creation.Replayed}); with another body it is a {@link Creation.Conflict}. The unique indexes
   * of the store decide, so concurrent repeats create one push (common's {@link CreateOnce}).
   *
   * <p>Every new push takes a prompt of the phone number's allowance ({@link PhonePromptLimits}) first; a repeat
   * prompts nobody, so it gives the prompt back, and is answered as always even when the number has had its prompts.
   * A refused push writes nothing. Before all this, the rail may refuse a push it could not send as asked
   * ({@link StkRail#check}: a live rail takes whole shillings only), or answer that it takes none now (503).
   *
   * @param origin the request's body fingerprint and, with an Idempotency-Key, the claim's record key
   * @throws RateLimitExceededException when the phone number has had its prompts for now (and this is no repeat)
   * @throws RailUnavailableException in live when no live rail is configured (the simulator is sandbox-only)
   */
  public Creation<StkPush> accept(OrganisationId organisationId, StkPushRequest request, Origin origin) {
    StkRail target = rails.getIfAvailable();
    if (stack.isLive() && target == null) {
      throw RailUnavailableException.noLiveRailFor("STK pushes");
    }
    if (target != null) {
      // what the rail could not send as asked is refused now, before a push exists (a live rail takes no cents)
      FieldErrors errors = new FieldErrors();
      target.check(request.amount(), request.currency().name(), errors);
      errors.throwIfAny();
    }
    RequestId requestId = RequestId.random();
    boolean keep = target != null && target.answersInProcess();
    try (LogContext context = LogContext.payment(organisationId, requestId)) {
      return accept(organisationId, request, origin, requestId, keep);
    }
  }

  private Creation<StkPush> accept(OrganisationId organisationId, StkPushRequest request, Origin origin,
      RequestId requestId, boolean keep) {
    Creation<StkPush> creation = CreateOnce.<StkPush>of(origin)
        .byIdempotencyKey(key -> store.findByIdempotencyKey(organisationId, key))
        .byReference(request.referenceId(), reference -> store.findByReference(organisationId, reference))
        .after(() -> promptLimits.acquire(request.phoneNumber())::giveBack, store::holds)
        .create(() -> StkPush.accept(ids.next(), requestId, organisationId, request, now()),
            push -> store.insert(push, origin));
    if (creation instanceof Creation.Created<StkPush>(StkPush push)) {
      if (keep) {
        accepted.keep(push);
      }
      metrics.accepted(PaymentKind.STK_PUSH, country(push));
    }
    return creation;
  }

  public List<StkPush> list(StkListQuery query) {
    return store.list(query);
  }

  /** A page of the list and, when there is one more, its first push (so the page knows it has a next). */
  public List<StkPush> pageAndOneMore(StkListQuery query) {
    return store.list(query, query.size() + 1);
  }

  public Optional<StkPush> find(OrganisationId organisationId, RequestId requestId) {
    return store.find(organisationId, requestId);
  }

  /**
   * The organisation's push created with this referenceId: at most one, since a referenceId is unique per organisation
   * (a repeat with the same body replays the original, another body is refused), read through its unique index.
   */
  public Optional<StkPush> findByReference(OrganisationId organisationId, String referenceId) {
    return store.findByReference(organisationId, referenceId).map(Earlier::record);
  }

  /**
   * Moves the push PENDING to SUCCESS or FAILED. The rail's acceptance ids and codes are written in the same update
   * as the result (the sandbox reports both together), so an outcome costs one store write; the emitted domain event
   * and callback request travel in that write too. A push this process accepted for an in-process rail is not read
   * back first ({@link AcceptedPushes}): the outcome is then the one guarded update.
   */
  @Override
  public boolean apply(StkRailOutcome outcome) {
    Optional<StkPush> found = accepted.take(outcome.organisationId(), outcome.requestId())
        .or(() -> store.find(outcome.organisationId(), outcome.requestId()));
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
    if (outcome.successful() && outcome.receipt() == null) {
      // a payment confirmed by the rail's query, whose answer names no receipt (docs/going-live.md, "Reconciliation")
      push.confirmPaidWithoutReceipt(reference, outcome.resultDescription(), callbackId, now());
    } else if (outcome.successful()) {
      push.succeed(reference, outcome.resultDescription(), outcome.receipt(), callbackId, now());
    } else {
      push.fail(reference, outcome.resultCode(), outcome.resultDescription(), callbackId, now());
    }
    boolean applied = store.complete(push);
    if (applied) {
      metrics.finished(PaymentKind.STK_PUSH, country(push), outcome.successful(), push.details().createdAt(),
          push.updatedAt());
    } else {
      log.info("another outcome completed STK push {} first; this one is ignored", push.requestId());
    }
    return applied;
  }

  private static String country(StkPush push) {
    return push.details().currency().country().region();
  }

  /** Store times have millisecond precision: the aggregate uses the same, so what it holds is what is stored. */
  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }
}
