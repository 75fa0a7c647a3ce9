package dev.lipa.checkout.session.web;

import dev.lipa.checkout.CheckoutProperties;
import dev.lipa.checkout.session.CheckoutSession;
import dev.lipa.checkout.session.CheckoutSessions;
import dev.lipa.checkout.session.CreateSessionRequest;
import dev.lipa.checkout.session.PaymentMethod;
import dev.lipa.checkout.web.Branding;
import dev.lipa.checkout.web.CheckoutBodies;
import dev.lipa.checkout.web.CheckoutJsonApi;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.idempotency.IdempotencyClaim;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotentEndpoint;
import dev.lipa.common.idempotency.IdempotentRequest;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.once.Creation;
import dev.lipa.common.once.Origin;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Endpoints 2 and 3 of the spec: create a checkout session, retrieve one of the caller's sessions. No envelope. */
@RestController
@CheckoutJsonApi
@RequestMapping(path = StackEnvironment.API + "/checkout-sessions", produces = MediaType.APPLICATION_JSON_VALUE)
class CheckoutSessionController {

  /** The idempotency keys' scope: the sandbox path names it in both environments (each has its own store). */
  static final String CREATE_SCOPE = "POST /api/sandbox/v1/checkout-sessions";
  static final String DEVICE_ID = "Device-Id";
  static final int DEVICE_ID_MAX = 128;

  private final CheckoutSessions sessions;
  private final IdempotentEndpoint idempotency;
  private final CallbackUrls callbackUrls;
  private final Branding branding;
  private final CheckoutProperties properties;
  private final JsonMapper json;
  private final StackEnvironment stack;

  CheckoutSessionController(CheckoutSessions sessions, IdempotentEndpoint idempotency, CallbackUrls callbackUrls,
      Branding branding, CheckoutProperties properties, JsonMapper json, StackEnvironment stack) {
    this.stack = stack;
    this.sessions = sessions;
    this.idempotency = idempotency;
    this.callbackUrls = callbackUrls;
    this.branding = branding;
    this.properties = properties;
    this.json = json;
  }

  /**
   * Validates everything before writing anything (a refused request writes nothing, not even its Idempotency-Key);
   * a repeat with the same key and body answers the original 201 with {@code Idempotent-Replayed: true}.
   */
  @PostMapping
  ResponseEntity<?> create(@RequestBody(required = false) byte[] rawBody,
      @RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) String contentType,
      @RequestHeader(name = IdempotencyKeys.HEADER, required = false) String keyHeader,
      @RequestHeader(name = DEVICE_ID, required = false) String deviceIdHeader, HttpServletRequest request) {
    JsonNode body = CheckoutBodies.read(contentType, rawBody, json);
    FieldErrors errors = new FieldErrors();
    String key = IdempotencyKeys.readKey(keyHeader, errors);
    String deviceId = deviceId(deviceIdHeader, errors);
    CreateSessionRequest command = null;
    try {
      command = CreateSessionRequest.from(body);
    } catch (ValidationException e) {
      e.errors().forEach((field, messages) -> messages.forEach(message -> errors.add(field, message)));
    }
    if (command != null && stack.isLive() && command.paymentMethods().contains(PaymentMethod.CARD)) {
      // no card processor is connected yet: a live page collects no card number (docs/going-live.md)
      errors.add("paymentMethods", "CARD is not available in live yet (no card processor is connected); offer "
          + "MPESA_STK");
    }
    errors.throwIfAny();
    if (command.callbackUrl() != null) {
      // loopback, private and metadata addresses are refused at acceptance already (SSRF)
      callbackUrls.requireAcceptable("callbackUrl", command.callbackUrl());
    }
    OrganisationId organisation = Caller.organisation(request);
    String fingerprint = RequestFingerprint.of(body);
    CreateSessionRequest accepted = command;
    return idempotency.execute(new IdempotentRequest(organisation, CREATE_SCOPE, key, fingerprint),
        claim -> accept(organisation, accepted, deviceId, fingerprint, claim));
  }

  private ResponseEntity<?> accept(OrganisationId organisationId, CreateSessionRequest command, String deviceId,
      String fingerprint, IdempotencyClaim claim) {
    return switch (sessions.create(organisationId, command, deviceId, Origin.of(fingerprint, claim))) {
      case Creation.Created<CheckoutSession>(CheckoutSession session) ->
          ResponseEntity.status(HttpStatus.CREATED).body(created(session));
      case Creation.Replayed<CheckoutSession>(CheckoutSession session) -> ResponseEntity.status(HttpStatus.CREATED)
          .header(IdempotencyKeys.REPLAYED_HEADER, "true").body(created(session));
      // answered in the checkout error body by CheckoutExceptionHandler
      case Creation.Conflict<CheckoutSession>(String message) -> throw ApiException.conflict(message);
    };
  }

  private Created created(CheckoutSession session) {
    String ref = session.details().checkoutRef();
    return new Created(session.id().toString(), properties.pageUrl(ref), ref,
        session.status().name());
  }

  /** Only the caller's own sessions: another organisation's id is answered exactly like an unknown one (404). */
  @GetMapping("/{checkoutSessionId}")
  SessionView retrieve(@PathVariable String checkoutSessionId, HttpServletRequest request) {
    UUID id;
    try {
      id = UUID.fromString(checkoutSessionId);
    } catch (IllegalArgumentException e) {
      throw new CheckoutSessions.UnknownSessionException();
    }
    CheckoutSession session = sessions.find(Caller.organisation(request), id)
        .orElseThrow(() -> new CheckoutSessions.UnknownSessionException());
    return view(session);
  }

  private SessionView view(CheckoutSession session) {
    CheckoutSession.Details d = session.details();
    Branding.Merchant merchant = branding.of(d.organisationId());
    List<String> methods = d.paymentMethods().stream().map(Enum::name).toList();
    return new SessionView(d.id().toString(), d.amount(), d.currency(), d.description(), d.customerEmail(),
        d.customerPhone(), d.externalReference(), methods, merchant.displayName(), merchant.logoUrl(),
        session.status().name());
  }

  private static String deviceId(String header, FieldErrors errors) {
    if (header == null) {
      return null;
    }
    String value = header.strip();
    if (value.isEmpty() || value.length() > DEVICE_ID_MAX || !value.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
      errors.add(DEVICE_ID, DEVICE_ID + " must be 1 to " + DEVICE_ID_MAX + " visible ASCII characters");
      return null;
    }
    return value;
  }

  /** The 201 answer, without an envelope. */
  record Created(String id, String checkoutUrl, String checkoutRef, String status) {
  }
}
