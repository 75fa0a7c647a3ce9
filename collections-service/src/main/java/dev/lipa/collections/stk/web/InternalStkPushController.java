package dev.lipa.collections.stk.web;

import dev.lipa.collections.stk.StkPush;
import dev.lipa.collections.stk.StkPushRequest;
import dev.lipa.collections.stk.StkPushes;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.once.Creation;
import dev.lipa.common.once.Origin;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.common.web.ValidationException;
import java.math.BigDecimal;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /internal/v1/stk-pushes}: another platform service (checkout-service) starts an STK push on behalf of an
 * organisation named in the body. Not a merchant endpoint: the gateway does not route /internal, the bearer filter
 * skips it, and the caller proves itself with the shared {@code X-Internal-Token}, checked for every {@code /internal}
 * path by common's {@link dev.lipa.common.servlet.InternalTokenFilter} ({@code LIPA_INTERNAL_TOKEN}; unset: 503).
 *
 * <p>The body is the merchant request's fields plus {@code organisationId}, read by
 * {@link StkPushRequest#fromPlatform}: the merchant rules (phone per currency, whole amounts, description ≤ 13…),
 * except that there is no merchant callback (the caller follows the outcome on payments.collections.v1, so the push
 * is stored without a callbackUrl and requests none) and that for TZS without a channel, the channel is picked from
 * the number's network. A repeated referenceId with the same body answers the original push (201), so the caller may
 * retry safely.
 */
@RestController
class InternalStkPushController {

  static final String PATH = "/internal/v1/stk-pushes";

  private final StkPushes pushes;

  InternalStkPushController(StkPushes pushes) {
    this.pushes = pushes;
  }

  @PostMapping(path = PATH, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> create(@RequestBody JsonNode body) {
    if (!(body instanceof ObjectNode object)) {
      throw ValidationException.of("body", "must be a JSON object");
    }
    JsonNode organisation = object.get("organisationId");
    if (organisation == null || !organisation.isString() || organisation.stringValue().isBlank()
        || organisation.stringValue().length() > 64) {
      throw ValidationException.of("organisationId", "organisationId is required");
    }
    OrganisationId organisationId = OrganisationId.of(organisation.stringValue());
    StkPushRequest request = StkPushRequest.fromPlatform(object);
    StkPush push = switch (pushes.accept(organisationId, request, new Origin(RequestFingerprint.of(object), null))) {
      case Creation.Created<StkPush>(StkPush created) -> created;
      case Creation.Replayed<StkPush>(StkPush earlier) -> earlier;
      case Creation.Conflict<StkPush>(String message) -> throw ApiException.conflict(message);
    };
    return ResponseEntity.status(HttpStatus.CREATED).body(Envelope.created("STK push accepted for processing",
        new Accepted(push.requestId().toString(), push.details().phoneNumber(), push.details().amount())));
  }

  record Accepted(String requestId, String phoneNumber, BigDecimal requestedAmount) {
  }
}
