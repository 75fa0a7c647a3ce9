package dev.lipa.payouts.payout;

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
import dev.lipa.common.tracing.LogContext;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutOutcomeHandler;
import dev.lipa.payouts.payout.rail.PayoutRail;
import dev.lipa.payouts.payout.rail.PayoutRailOutcome;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;

/**
 * The payout use cases: accept a request (reserve, then store), list, find, apply a rail's outcome (settle or release,
 * then compare-and-set).
 *
 * <p>Order of writes and why. Accepting reserves first: a refusal for insufficient balance must write nothing, and
 * the guarded reservation is what serialises concurrent payouts of one account. A crash between the reservation and
 * the insert leaves a reservation no payout owns; the ledger's repair releases it after
 * {@code lipa.payouts.ledger.orphan-after}. An insert that fails is not assumed to have written nothing: the
 * reservation is released at once only when the payout is known to be absent. An outcome settles or releases first and then completes the payout: the
 * ledger step is idempotent for ever (the reservation's hold is removed exactly once), so when a crash falls between
 * the two, the overdue sweep asks the rail again and the repeated outcome skips the ledger and completes the payout.
 */
@Service
public class Payouts implements PayoutOutcomeHandler {

  private static final Logger log = LoggerFactory.getLogger(Payouts.class);

  private final PayoutStore store;
  private final RecordIds ids;
  private final Ledger ledger;
  private final Clock clock;
  private final PaymentMetrics metrics;
  private final ObjectProvider<PayoutRail> rails;
  private final StackEnvironment stack;

  @Autowired
  public Payouts(PayoutStore store, RecordIds ids, Ledger ledger, Clock clock, PaymentMetrics metrics,
      ObjectProvider<PayoutRail> rails, StackEnvironment stack) {
    this.store = store;
    this.rails = rails;
    this.stack = stack;
    this.ids = ids;
    this.ledger = ledger;
    this.clock = clock;
    String[] countries = Arrays.stream(Currency.values()).filter(Currency::paysOut)
        .map(currency -> currency.country().region()).toArray(String[]::new);
    for (PayoutKind kind : PayoutKind.values()) {
      metrics.declare(metricKind(kind), countries);
    }
    this.metrics = metrics;
  }

  /** Without exported metrics, in the sandbox: for tests that build the use cases themselves. */
  public Payouts(PayoutStore store, RecordIds ids, Ledger ledger, Clock clock) {
    this(store, ids, ledger, clock, PaymentMetrics.unexported(), null, StackEnvironment.SANDBOX);
  }

  /**
   * Reserves the amount and stores the payout PENDING with its accepted event (common's {@link CreateOnce}). A repeat
   * of an earlier request (same referenceId of the same kind, or the same idempotency claim) is looked for first, so
   * that it creates and reserves nothing: with the same body it gives back the original payout
   * ({@link Creation.Replayed}), with another a {@link Creation.Conflict}. When a concurrent repeat wins the insert,
   * the reservation made meanwhile is released. An insert that fails is not assumed to have written nothing: the
   * reservation is released at once only when the payout is known to be absent.
   *
   * @throws dev.lipa.payouts.ledger.InsufficientBalanceException when the available balance does not cover it (and
   *     this is no repeat)
   * @throws RailUnavailableException in live when no live rail is configured (the simulator is sandbox-only)
   */
  public Creation<Payout> accept(OrganisationId organisationId, PayoutRequest request, Origin origin) {
    PayoutRail target = rails == null ? null : rails.getIfAvailable();
    if (stack.isLive() && target == null) {
      throw RailUnavailableException.noLiveRailFor("payouts");
    }
    if (target != null) {
      // what the rail could not send as asked is refused now, before anything is reserved (a live rail serves KSH)
      FieldErrors errors = new FieldErrors();
      target.check(new PayoutOrder(organisationId, null, request.kind().code(), request.phoneNumber(),
          request.businessNumber(), request.accountNumber(), request.amount(), request.currency().name(), null),
          errors);
      errors.throwIfAny();
    }
    RequestId requestId = RequestId.random();
    try (LogContext context = LogContext.payment(organisationId, requestId)) {
      return accept(organisationId, request, origin, requestId);
    }
  }

  private Creation<Payout> accept(OrganisationId organisationId, PayoutRequest request, Origin origin,
      RequestId requestId) {
    Creation<Payout> creation = CreateOnce.<Payout>of(origin)
        .byReference(request.referenceId(),
            reference -> store.findByReference(organisationId, request.kind(), reference))
        .byIdempotencyKey(key -> store.findByIdempotencyKey(organisationId, key))
        .lookingFirst()
        .after(() -> {
          ledger.reserve(organisationId, request.currency(), requestId, request.amount());
          return () -> ledger.release(organisationId, request.currency(), requestId, request.amount());
        }, payout -> store.owns(payout.organisationId(), payout.requestId()))
        .create(() -> Payout.accept(ids.next(), requestId, organisationId, request,
            originatorConversationId(requestId), now()), payout -> store.insert(payout, origin));
    if (creation instanceof Creation.Created<Payout>(Payout payout)) {
      metrics.accepted(metricKind(payout.kind()), country(payout));
    }
    return creation;
  }

  public List<Payout> list(PayoutListQuery query) {
    return store.list(query);
  }

  /** A page of the list and, when there is one more, its first payout (so the page knows it has a next). */
  public List<Payout> pageAndOneMore(PayoutListQuery query) {
    return store.list(query, query.size() + 1);
  }

  public Optional<Payout> find(OrganisationId organisationId, RequestId requestId) {
    return store.find(organisationId, requestId);
  }

  /**
   * The organisation's payout of {@code kind} created with this referenceId: at most one, since a referenceId is unique
   * per organisation and kind (a repeat with the same body replays the original, another body is refused), read
   * through its unique index.
   */
  public Optional<Payout> findByReference(OrganisationId organisationId, PayoutKind kind, String referenceId) {
    return store.findByReference(organisationId, kind, referenceId).map(Earlier::record);
  }

  @Override
  public boolean apply(PayoutRailOutcome outcome) {
    Optional<Payout> found = store.find(outcome.organisationId(), outcome.requestId());
    if (found.isEmpty()) {
      log.warn("outcome for unknown payout {} of {} ignored", outcome.requestId(), outcome.organisationId());
      return false;
    }
    Payout payout = found.get();
    if (payout.status() != PayoutStatus.PENDING) {
      log.info("late or duplicate outcome for payout {} ({}) ignored", payout.requestId(), payout.status());
      return false;
    }
    Payout.Result result = new Payout.Result(outcome.conversationId(), outcome.responseCode(),
        outcome.responseDescription(), outcome.resultCode(), outcome.resultDescription(),
        outcome.successful() ? outcome.transactionReceipt() : null,
        outcome.successful() ? outcome.receiverName() : null, UUID.randomUUID());
    if (outcome.successful()) {
      ledger.settle(payout.organisationId(), payout.currency(), payout.requestId(), payout.amount());
      payout.succeed(result, now());
    } else {
      ledger.release(payout.organisationId(), payout.currency(), payout.requestId(), payout.amount());
      payout.fail(result, now());
    }
    boolean applied = store.complete(payout);
    if (applied) {
      metrics.finished(metricKind(payout.kind()), country(payout), outcome.successful(),
          payout.details().createdAt(), payout.updatedAt());
    } else {
      log.info("another outcome completed payout {} first; this one is ignored", payout.requestId());
    }
    return applied;
  }

  private static PaymentKind metricKind(PayoutKind kind) {
    return switch (kind) {
      case SEND_MONEY -> PaymentKind.SEND_MONEY;
      case TILL -> PaymentKind.TILL;
      case PAYBILL -> PaymentKind.PAYBILL;
    };
  }

  private static String country(Payout payout) {
    return payout.currency().paysOut() ? payout.currency().country().region() : "other";
  }

  /** PENDING payouts created before the cut-off (the overdue sweep). */
  public List<Payout> overdue(Instant createdBefore, int limit) {
    return store.overduePending(createdBefore, limit);
  }

  /** What a rail needs to pay this payout. */
  public static PayoutOrder orderOf(Payout payout) {
    PayoutRequest r = payout.request();
    String receiver = r.customerName() != null ? r.customerName()
        : r.firstName() != null ? r.firstName() + " " + r.lastName() : null;
    return new PayoutOrder(payout.organisationId(), payout.requestId(), payout.kind().code(), r.phoneNumber(),
        r.businessNumber(), r.accountNumber(), r.amount(), r.currency().name(), receiver);
  }

  /** Daraja-like {@code OriginatorConversationID} ({@code 12345-67890123-1}), stable for a requestId. */
  static String originatorConversationId(RequestId requestId) {
    try {
      ByteBuffer bits = ByteBuffer.wrap(MessageDigest.getInstance("SHA-256")
          .digest(requestId.toString().getBytes(StandardCharsets.UTF_8)));
      return "%d-%08d-%d".formatted(Math.abs(bits.getLong() % 100_000L), Math.abs(bits.getLong() % 100_000_000L),
          Math.abs(bits.getLong() % 10L));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }
}
