package dev.lipa.payouts.payout.web;

import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotentEndpoint;
import dev.lipa.common.idempotency.IdempotentRequest;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.once.Creation;
import dev.lipa.common.once.Origin;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.business.BusinessPaymentRequest;
import dev.lipa.payouts.ledger.InsufficientBalanceException;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.organisations.Organisations;
import dev.lipa.payouts.payout.Payout;
import dev.lipa.payouts.payout.PayoutKind;
import dev.lipa.payouts.payout.PayoutListQuery;
import dev.lipa.payouts.payout.PayoutRequest;
import dev.lipa.payouts.payout.PayoutStatus;
import dev.lipa.payouts.payout.Payouts;
import dev.lipa.payouts.sendmoney.SendMoneyRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Endpoints 6 to 12 and 18 of the spec: create and list send-money, till and paybill payouts, the paybill status and
 * the TZ payout lookup. Every POST honours an {@code Idempotency-Key}; a {@code referenceId} also makes a repeat
 * return the original payout.
 */
@RestController
class PayoutController {

  static final String SEND_MONEY = "/api/sandbox/v1/send-money";
  static final String TILL = "/api/sandbox/v1/till";
  static final String PAYBILL = "/api/sandbox/v1/paybill";
  static final String TZ_SPENDING = "/api/v1/tz/spending/single";
  static final int DEFAULT_PAGE_SIZE = 100;
  static final int MAX_PAGE_SIZE = 500;
  static final HttpStatus INSUFFICIENT_BALANCE = HttpStatus.UNPROCESSABLE_CONTENT;
  static final String COMPANY_NOT_FOUND = "company not found";

  private final Payouts payouts;
  private final Organisations organisations;
  private final IdempotentEndpoint idempotent;
  private final CallbackUrlGuard callbackUrls;
  private final ZoneId zone;

  PayoutController(Payouts payouts, Organisations organisations, IdempotentEndpoint idempotent,
      CallbackUrlGuard callbackUrls, PayoutsProperties properties) {
    this.payouts = payouts;
    this.organisations = organisations;
    this.idempotent = idempotent;
    this.callbackUrls = callbackUrls;
    this.zone = properties.zone();
  }

  @PostMapping(path = SEND_MONEY, consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> sendMoney(@RequestBody JsonNode body, HttpServletRequest request) {
    return create("POST " + SEND_MONEY, body, SendMoneyRequest::from, request, "send money accepted for processing",
        p -> new PayoutViews.SendMoneyAccepted(p.requestId().toString(), p.amount(), p.request().phoneNumber(),
            p.status().name()));
  }

  @PostMapping(path = TILL, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> till(@RequestBody JsonNode body, HttpServletRequest request) {
    return create("POST " + TILL, body, BusinessPaymentRequest::till, request, "till payment accepted for processing",
        PayoutController::businessAccepted);
  }

  @PostMapping(path = PAYBILL, consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> paybill(@RequestBody JsonNode body, HttpServletRequest request) {
    return create("POST " + PAYBILL, body, BusinessPaymentRequest::paybill, request,
        "paybill payment accepted for processing", PayoutController::businessAccepted);
  }

  private static PayoutViews.BusinessAccepted businessAccepted(Payout p) {
    return new PayoutViews.BusinessAccepted(p.requestId().toString(), p.request().accountNumber(),
        p.request().businessNumber(), p.amount(), p.status().name());
  }

  /**
   * Validates first (a refusal never touches the key store), then runs the acceptance under the Idempotency-Key.
   * A payout is always made from the caller's own organisation (the token's), never from a companyId.
   */
  private ResponseEntity<?> create(String scope, JsonNode body, Function<JsonNode, PayoutRequest> reader,
      HttpServletRequest request, String message, Function<Payout, Object> answer) {
    FieldErrors headerErrors = new FieldErrors();
    String key = IdempotencyKeys.readKey(request.getHeader(IdempotencyKeys.HEADER), headerErrors);
    headerErrors.throwIfAny();
    PayoutRequest command = reader.apply(body);
    // loopback, private and metadata addresses are refused here already, not only when the callback is sent
    callbackUrls.requireAcceptable("callbackUrl", command.callbackUrl());
    String organisationId = Caller.organisationId(request);
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

  @GetMapping(path = SEND_MONEY + "/all", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<List<PayoutViews.SendMoneyRecord>> sendMoneyList(@RequestParam String companyId,
      @RequestParam(required = false) String status, @RequestParam(required = false) String currencyCode,
      @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "" + DEFAULT_PAGE_SIZE) int size,
      HttpServletRequest request) {
    PayoutListQuery query = query(request, companyId, PayoutKind.SEND_MONEY, status, currencyCode, page, size);
    return Envelope.ok("OK", payouts.list(query).stream()
        .map(p -> PayoutViews.SendMoneyRecord.of(p, organisations.recordOrganisation(p.organisationId()), zone))
        .toList());
  }

  @GetMapping(path = TILL + "/all", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<List<PayoutViews.BusinessRecord>> tillList(@RequestParam String companyId,
      @RequestParam(required = false) String status, @RequestParam(defaultValue = "0") int page,
      @RequestParam(defaultValue = "" + DEFAULT_PAGE_SIZE) int size, HttpServletRequest request) {
    return businessList(query(request, companyId, PayoutKind.TILL, status, null, page, size));
  }

  /** The spec shows no parameters here: {@code companyId} is optional (default: the caller) with the same rules. */
  @GetMapping(path = PAYBILL + "/all", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<List<PayoutViews.BusinessRecord>> paybillList(@RequestParam(required = false) String companyId,
      @RequestParam(required = false) String status, @RequestParam(defaultValue = "0") int page,
      @RequestParam(defaultValue = "" + DEFAULT_PAGE_SIZE) int size, HttpServletRequest request) {
    return businessList(query(request, companyId, PayoutKind.PAYBILL, status, null, page, size));
  }

  private Envelope<List<PayoutViews.BusinessRecord>> businessList(PayoutListQuery query) {
    return Envelope.ok("OK", payouts.list(query).stream()
        .map(p -> PayoutViews.BusinessRecord.of(p, organisations.recordOrganisation(p.organisationId()), zone))
        .toList());
  }

  @GetMapping(path = PAYBILL + "/status", produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<PayoutViews.BusinessStatus> paybillStatus(@RequestParam String requestId, HttpServletRequest request) {
    Payout payout = own(request, requestId).filter(p -> p.kind() == PayoutKind.PAYBILL)
        .orElseThrow(() -> ApiException.notFound("paybill payment not found"));
    return Envelope.ok("OK", new PayoutViews.BusinessStatus(payout.request().accountNumber(),
        payout.request().businessNumber(), payout.requestId().toString(), payout.amount(), payout.status().name()));
  }

  /** The caller's TZS send-money payout; {@code Device-Id} is required (the gateway checks it too). */
  @GetMapping(path = TZ_SPENDING, produces = MediaType.APPLICATION_JSON_VALUE)
  Envelope<PayoutViews.TzPayoutRecord> tzSpending(@RequestParam String requestId,
      @RequestHeader(name = "Device-Id", required = false) String deviceId, HttpServletRequest request) {
    if (deviceId == null || deviceId.isBlank()) {
      throw ValidationException.of("Device-Id", "Device-Id header is required");
    }
    Payout payout = own(request, requestId)
        .filter(p -> p.kind() == PayoutKind.SEND_MONEY && p.currency() == Currency.TZS)
        .orElseThrow(() -> ApiException.notFound("TZ payout not found"));
    return Envelope.ok("OK",
        PayoutViews.TzPayoutRecord.of(payout, organisations.recordOrganisation(payout.organisationId()), zone));
  }

  private Optional<Payout> own(HttpServletRequest request, String requestId) {
    UUID id;
    try {
      id = UUID.fromString(requestId);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return payouts.find(Caller.organisationId(request), id);
  }

  /**
   * The list's organisation: {@code companyId} when it is the caller or one of its sub-accounts; anything else is
   * the same 404 whether or not that organisation exists.
   */
  private PayoutListQuery query(HttpServletRequest request, String companyId, PayoutKind kind, String status,
      String currencyCode, int page, int size) {
    String caller = Caller.organisationId(request);
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
    String company = companyId == null ? caller : companyId.strip();
    if (company.isEmpty()) {
      errors.add("companyId", "companyId is required");
    }
    errors.throwIfAny();
    if (!organisations.isSelfOrSubAccount(caller, company)) {
      throw ApiException.notFound(COMPANY_NOT_FOUND);
    }
    return new PayoutListQuery(company, kind, wanted, currency, null, null, page, size);
  }
}
