package dev.lipa.payouts.web;

import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotentEndpoint;
import dev.lipa.common.idempotency.IdempotentRequest;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.lookups.ListCursor;
import dev.lipa.common.lookups.ListPage;
import dev.lipa.common.lookups.RecordLookup;
import dev.lipa.common.once.Creation;
import dev.lipa.common.once.Origin;
import dev.lipa.common.organisations.RecordOrganisation;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.ledger.InsufficientBalanceException;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.organisations.Organisations;
import dev.lipa.payouts.payout.Payout;
import dev.lipa.payouts.payout.PayoutKind;
import dev.lipa.payouts.payout.PayoutListQuery;
import dev.lipa.payouts.payout.PayoutRequest;
import dev.lipa.payouts.payout.PayoutStatus;
import dev.lipa.payouts.payout.Payouts;
import jakarta.servlet.http.HttpServletRequest;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * What every payout endpoint family (send money, till, paybill, TZ spending) does the same way: create a payout under
 * the {@code Idempotency-Key} and its referenceId, list the payouts of the caller or of one of its sub-accounts (with a
 * next-page cursor), find one of the caller's payouts by requestId or referenceId, and render a record with its
 * organisation and local times.
 */
@Component
public class PayoutEndpoints {

  public static final int DEFAULT_PAGE_SIZE = 100;
  public static final int MAX_PAGE_SIZE = 500;
  static final HttpStatus INSUFFICIENT_BALANCE = HttpStatus.UNPROCESSABLE_CONTENT;
  static final String COMPANY_NOT_FOUND = "company not found";

  private final Payouts payouts;
  private final Organisations organisations;
  private final IdempotentEndpoint idempotent;
  private final CallbackUrlGuard callbackUrls;
  private final ZoneId zone;

  PayoutEndpoints(Payouts payouts, Organisations organisations, IdempotentEndpoint idempotent,
      CallbackUrlGuard callbackUrls, PayoutsProperties properties) {
    this.payouts = payouts;
    this.organisations = organisations;
    this.idempotent = idempotent;
    this.callbackUrls = callbackUrls;
    this.zone = properties.zone();
  }

  /** A payout record as the spec shows it, from the payout, its organisation object and the zone of local times. */
  @FunctionalInterface
  public interface RecordView<T> {

    T of(Payout payout, RecordOrganisation organisation, ZoneId zone);
  }

  /**
   * Creates a payout: validates first (a refusal never touches the key store), then runs the acceptance under the
   * Idempotency-Key. A payout is always made from the caller's own organisation (the token's), never from a
   * companyId. 201 with {@code answer} of the payout, also for a repeated referenceId with the same body.
   *
   * @param scope the endpoint, e.g. {@code "POST /api/sandbox/v1/till"} (the key store's scope)
   */
  public ResponseEntity<?> create(String scope, JsonNode body, Function<JsonNode, PayoutRequest> reader,
      HttpServletRequest request, String message, Function<Payout, Object> answer) {
    FieldErrors headerErrors = new FieldErrors();
    String key = IdempotencyKeys.readKey(request.getHeader(IdempotencyKeys.HEADER), headerErrors);
    headerErrors.throwIfAny();
    PayoutRequest command = reader.apply(body);
    // loopback, private and metadata addresses are refused here already, not only when the callback is sent
    callbackUrls.requireAcceptable("callbackUrl", command.callbackUrl());
    OrganisationId organisationId = Caller.organisation(request);
    String fingerprint = RequestFingerprint.of(body);
    return idempotent.execute(new IdempotentRequest(organisationId, scope, key, fingerprint), claim -> {
      Creation<Payout> creation;
      try {
        creation = payouts.accept(organisationId, command, Origin.of(fingerprint, claim));
      } catch (InsufficientBalanceException e) {
        throw new ApiException(INSUFFICIENT_BALANCE, e.getMessage());
      }
      return switch (creation) {
        case Creation.Created<Payout>(Payout payout) ->
            ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created(message, answer.apply(payout)));
        // a repeated referenceId (the key's own replays are marked by the idempotent endpoint)
        case Creation.Replayed<Payout>(Payout payout) -> ResponseEntity.status(HttpStatus.CREATED)
            .header(IdempotencyKeys.REPLAYED_HEADER, "true").body(Envelope.created(message, answer.apply(payout)));
        case Creation.Conflict<Payout>(String conflict) -> throw ApiException.conflict(conflict);
      };
    });
  }

  /**
   * The payouts of {@code kind} of the list's organisation, rendered with {@code view}: {@code companyId} (null: the
   * caller) when it is the caller or one of its sub-accounts; anything else is the same 404 whether or not that
   * organisation exists. Every parameter's refusal is named at once.
   *
   * @param currencyCode a payout currency code to filter on, or null
   */
  public <T> ListPage<T> list(HttpServletRequest request, String companyId, PayoutKind kind, String status,
      String currencyCode, int page, int size, String cursor, RecordView<T> view) {
    PayoutListQuery query = query(request, companyId, kind, status, currencyCode, page, size, cursor);
    return ListPage.of(payouts.pageAndOneMore(query), query.size(), PayoutListQuery::cursorAfter,
        p -> view(p, view));
  }

  /**
   * The caller's own payout of {@code kind} by {@code requestId} or by its {@code referenceId} (exactly one; see
   * {@link RecordLookup#read}), rendered with {@code view}. Unknown, another organisation's (a sub-account's
   * included, as for every lookup by id) and another kind's are the same 404.
   *
   * @param what the record's name in the 404's message, e.g. {@code "till payment"}
   */
  public <T> Envelope<T> single(HttpServletRequest request, PayoutKind kind, String what, RecordView<T> view) {
    RecordLookup lookup = RecordLookup.read(request);
    OrganisationId caller = Caller.organisation(request);
    Optional<Payout> found = switch (lookup) {
      case RecordLookup.ByRequestId(RequestId id) -> payouts.find(caller, id).filter(p -> p.kind() == kind);
      case RecordLookup.ByReference(String reference) -> payouts.findByReference(caller, kind, reference);
    };
    return found.map(p -> Envelope.ok("OK", view(p, view)))
        .orElseThrow(() -> ApiException.notFound("No " + what + " with " + lookup.describe()));
  }

  /** The caller's payout with this requestId (empty too when it is no UUID). */
  public Optional<Payout> own(HttpServletRequest request, String requestId) {
    RequestId id;
    try {
      id = RequestId.of(UUID.fromString(requestId));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return payouts.find(Caller.organisation(request), id);
  }

  /** The payout rendered with {@code view}. */
  public <T> T view(Payout payout, RecordView<T> view) {
    return view.of(payout, organisations.recordOrganisation(payout.organisationId()), zone);
  }

  private PayoutListQuery query(HttpServletRequest request, String companyId, PayoutKind kind, String status,
      String currencyCode, int page, int size, String cursor) {
    OrganisationId caller = Caller.organisation(request);
    FieldErrors errors = new FieldErrors();
    PayoutStatus wanted = null;
    if (status != null) {
      wanted = Arrays.stream(PayoutStatus.values()).filter(s -> s.name().equals(status)).findFirst().orElse(null);
      if (wanted == null) {
        errors.add("status", "status must be PENDING, SUCCESS or FAILED");
      }
    }
    Currency currency = null;
    if (currencyCode != null) {
      currency = Currency.payout(currencyCode).orElse(null);
      if (currency == null) {
        errors.add("currencyCode", "currencyCode must be one of " + Currency.payoutCodes());
      }
    }
    if (page < 0) {
      errors.add("page", "page must be 0 or more");
    }
    if (size < 1 || size > MAX_PAGE_SIZE) {
      errors.add("size", "size must be between 1 and " + MAX_PAGE_SIZE);
    }
    if (!errors.has("page") && !errors.has("size") && (long) page * size > Integer.MAX_VALUE) {
      errors.add("page", "page is too large");
    }
    String company = companyId == null ? caller.value() : companyId.strip();
    if (company.isEmpty()) {
      errors.add("companyId", "companyId is required");
    }
    boolean cursorGiven = cursor != null && !cursor.isBlank();
    if (cursorGiven && request.getParameter("page") != null) {
      errors.add("page", "page and cursor cannot be combined: the cursor says where the next page starts");
    }
    errors.throwIfAny();
    OrganisationId listed = OrganisationId.of(company);
    if (!organisations.isSelfOrSubAccount(caller, listed)) {
      throw ApiException.notFound(COMPANY_NOT_FOUND);
    }
    // read for the listed organisation: a cursor of the caller's own list is refused on a sub-account's and back
    ListCursor after = cursorGiven ? ListCursor.read(cursor, PayoutListQuery.cursorList(kind), listed) : null;
    return new PayoutListQuery(listed, kind, wanted, currency, null, null, page, size, after);
  }
}
