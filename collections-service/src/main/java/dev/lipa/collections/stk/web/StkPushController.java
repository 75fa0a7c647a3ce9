package dev.lipa.collections.stk.web;

import dev.lipa.collections.stk.StkListQuery;
import dev.lipa.collections.stk.StkPush;
import dev.lipa.collections.stk.StkPushRequest;
import dev.lipa.collections.stk.StkPushes;
import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.idempotency.IdempotencyClaim;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotentEndpoint;
import dev.lipa.common.idempotency.IdempotentRequest;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.lookups.ListPage;
import dev.lipa.common.lookups.RecordLookup;
import dev.lipa.common.once.Creation;
import dev.lipa.common.once.Origin;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import jakarta.servlet.http.HttpServletRequest;
import java.math.BigDecimal;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Endpoints 4 and 5 of the spec: create an STK push, list the caller's STK pushes; and ours: read one. */
@RestController
@RequestMapping(path = StackEnvironment.API + "/stk", produces = MediaType.APPLICATION_JSON_VALUE)
class StkPushController {

  /** The idempotency scope of the create endpoint. */
  /** The idempotency keys' scope: the sandbox path names it in both environments (each has its own store). */
  static final String CREATE_SCOPE = "POST /api/sandbox/v1/stk/new";

  private final StkPushes pushes;
  private final StkPushViews views;
  private final IdempotentEndpoint idempotency;
  private final CallbackUrlGuard callbackUrls;

  StkPushController(StkPushes pushes, StkPushViews views, IdempotentEndpoint idempotency,
      CallbackUrlGuard callbackUrls) {
    this.pushes = pushes;
    this.views = views;
    this.idempotency = idempotency;
    this.callbackUrls = callbackUrls;
  }

  /**
   * The body is read as a tree so that every field error is precise ({@code "10"} is not a number). The request is
   * validated before anything is written (a refused request writes nothing, not even its Idempotency-Key); then the
   * key, if any, is claimed and the push accepted. A repeat (same referenceId or same key, same body) answers with the
   * original 201 and the header {@code Idempotent-Replayed: true}.
   */
  @PostMapping(path = "/new", consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> create(@RequestBody JsonNode body,
      @RequestHeader(name = IdempotencyKeys.HEADER, required = false) String keyHeader, HttpServletRequest request) {
    FieldErrors headerErrors = new FieldErrors();
    String key = IdempotencyKeys.readKey(keyHeader, headerErrors);
    StkPushRequest command;
    try {
      command = StkPushRequest.from(body);
    } catch (ValidationException e) {
      // one answer names every failing field, the header's included
      e.errors().forEach((field, messages) -> messages.forEach(message -> headerErrors.add(field, message)));
      throw new ValidationException(headerErrors);
    }
    headerErrors.throwIfAny();
    // loopback, private and metadata addresses are refused here already, not only when the callback is sent
    callbackUrls.requireAcceptable("callbackUrl", command.callbackUrl());
    OrganisationId organisation = Caller.organisation(request);
    String fingerprint = RequestFingerprint.of(body);
    return idempotency.execute(new IdempotentRequest(organisation, CREATE_SCOPE, key, fingerprint),
        claim -> accept(organisation, command, fingerprint, claim));
  }

  private ResponseEntity<?> accept(OrganisationId organisationId, StkPushRequest command, String fingerprint,
      IdempotencyClaim claim) {
    return switch (pushes.accept(organisationId, command, Origin.of(fingerprint, claim))) {
      case Creation.Created<StkPush>(StkPush push) -> ResponseEntity.status(HttpStatus.CREATED).body(accepted(push));
      case Creation.Replayed<StkPush>(StkPush push) -> ResponseEntity.status(HttpStatus.CREATED)
          .header(IdempotencyKeys.REPLAYED_HEADER, "true").body(accepted(push));
      case Creation.Conflict<StkPush>(String message) -> throw ApiException.conflict(message);
    };
  }

  /** The 201 answer, the same for the request that created the push and for its replays. */
  private static Envelope<Accepted> accepted(StkPush push) {
    return Envelope.created("STK push accepted for processing",
        new Accepted(push.requestId().toString(), push.details().phoneNumber(), push.details().amount()));
  }

  /**
   * Newest first, with optional filters and bounded paging (see {@link StkListParameters}); {@code nextCursor} fetches
   * the next page, null on the last.
   */
  @GetMapping("/all")
  ListPage<StkPushView> all(@RequestParam(required = false) String status,
      @RequestParam(required = false) String from, @RequestParam(required = false) String to,
      @RequestParam(required = false) String currencyCode, @RequestParam(required = false) String phoneNumber,
      @RequestParam(required = false) String page, @RequestParam(required = false) String size,
      @RequestParam(required = false) String cursor, HttpServletRequest request) {
    StkListQuery query = new StkListParameters(status, from, to, currencyCode, phoneNumber, page, size, cursor)
        .toQuery(Caller.organisation(request), views.zone());
    return ListPage.of(pushes.pageAndOneMore(query), query.size(), StkListQuery::cursorAfter, views::view);
  }

  /**
   * One of the caller's pushes, by {@code requestId} or by its own {@code referenceId} (exactly one), as the list shows
   * it. Unknown and another organisation's are the same 404.
   */
  @GetMapping("/single")
  Envelope<StkPushView> single(HttpServletRequest request) {
    RecordLookup lookup = RecordLookup.read(request);
    OrganisationId organisation = Caller.organisation(request);
    Optional<StkPush> found = switch (lookup) {
      case RecordLookup.ByRequestId(RequestId id) -> pushes.find(organisation, id);
      case RecordLookup.ByReference(String reference) -> pushes.findByReference(organisation, reference);
    };
    return found.map(push -> Envelope.ok("OK", views.view(push)))
        .orElseThrow(() -> ApiException.notFound("No STK push with " + lookup.describe()));
  }

  /** The 201 answer's {@code data}. */
  record Accepted(String requestId, String phoneNumber, BigDecimal requestedAmount) {
  }
}
