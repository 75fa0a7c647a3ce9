package dev.lipa.collections.internal;

import dev.lipa.collections.stk.StkCurrency;
import dev.lipa.collections.stk.StkPush;
import dev.lipa.collections.stk.StkPushRequest;
import dev.lipa.collections.stk.StkPushStore;
import dev.lipa.collections.stk.StkPushes;
import dev.lipa.collections.stk.TzChannel;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.ValidationException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /internal/v1/stk-pushes}: another platform service (checkout-service) starts an STK push on behalf of an
 * organisation named in the body. Not a merchant endpoint: the gateway does not route /internal, the bearer filter
 * skips it, and the caller proves itself with the shared {@code X-Internal-Token} ({@code lipa.internal.token}, env
 * {@code LIPA_INTERNAL_TOKEN}; unset means the endpoint answers 503).
 *
 * <p>The body is the merchant request's fields plus {@code organisationId}, checked by the same {@link StkPushRequest}
 * rules (phone per currency, whole amounts, description ≤ 13…), except that there is no merchant callback: the caller
 * follows the outcome on payments.collections.v1, so the push is stored without a callbackUrl and requests none. For
 * TZS without a channel, the channel is picked from the number's network. A repeated referenceId with the same body
 * answers the original push (201), so the caller may retry safely.
 */
@RestController
class InternalStkPushController {

  static final String PATH = "/internal/v1/stk-pushes";
  static final String TOKEN_HEADER = "X-Internal-Token";
  /** Only satisfies the merchant rule that a callbackUrl is present; it is dropped before the push is stored. */
  private static final String NO_CALLBACK = "https://internal.invalid/no-callback";

  private final StkPushes pushes;
  private final byte[] token;

  InternalStkPushController(StkPushes pushes, @Value("${lipa.internal.token:}") String token) {
    this.pushes = pushes;
    this.token = token == null || token.isBlank() ? null : token.getBytes(StandardCharsets.UTF_8);
  }

  @PostMapping(path = PATH, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> create(@RequestHeader(name = TOKEN_HEADER, required = false) String presented,
      @RequestBody JsonNode body) {
    if (token == null) {
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "internal calls are not configured");
    }
    if (presented == null
        || !MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8))) {
      throw new ApiException(HttpStatus.UNAUTHORIZED, "invalid internal token");
    }
    if (!(body instanceof ObjectNode object)) {
      throw ValidationException.of("body", "must be a JSON object");
    }
    JsonNode organisation = object.get("organisationId");
    if (organisation == null || !organisation.isString() || organisation.stringValue().isBlank()
        || organisation.stringValue().length() > 64) {
      throw ValidationException.of("organisationId", "organisationId is required");
    }
    String organisationId = organisation.stringValue();
    StkPushRequest request = read(object);
    StkPushes.Acceptance acceptance;
    try {
      acceptance = pushes.accept(organisationId, request,
          new StkPushStore.RequestIdentity(RequestFingerprint.of(object), null));
    } catch (StkPushes.ReferenceConflictException e) {
      throw ApiException.conflict(e.getMessage());
    }
    StkPush push = acceptance.push();
    return ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created("STK push accepted for processing",
        new Accepted(push.requestId().toString(), push.details().phoneNumber(), push.details().amount())));
  }

  /** The merchant rules with a placeholder callback, which is then removed. */
  private static StkPushRequest read(ObjectNode body) {
    ObjectNode copy = body.deepCopy();
    copy.remove("organisationId");
    copy.put("callbackUrl", NO_CALLBACK);
    StkPushRequest checked;
    String currency = copy.path("currencyCode").isString() ? copy.path("currencyCode").stringValue() : null;
    if (StkCurrency.TZS.name().equals(currency) && !copy.hasNonNull("channel")) {
      checked = firstChannelThatReaches(copy);
    } else {
      checked = StkPushRequest.from(copy);
    }
    return new StkPushRequest(checked.description(), checked.phoneNumber(), checked.amount(),
        checked.accountReference(), null, checked.currency(), checked.referenceId(), checked.channel(),
        checked.narration(), checked.customerName());
  }

  private static StkPushRequest firstChannelThatReaches(ObjectNode copy) {
    ValidationException first = null;
    for (TzChannel channel : TzChannel.values()) {
      copy.put("channel", channel.code());
      try {
        return StkPushRequest.from(copy);
      } catch (ValidationException e) {
        first = first == null ? e : first;
      }
    }
    throw first;
  }

  record Accepted(String requestId, String phoneNumber, BigDecimal requestedAmount) {
  }
}
