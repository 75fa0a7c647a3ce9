package dev.lipa.payouts.topup.web;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotentEndpoint;
import dev.lipa.common.idempotency.IdempotentRequest;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.json.JsonFields;
import dev.lipa.common.servlet.Caller;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.Envelope;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.requests.OnceOnly;
import dev.lipa.payouts.requests.RequestConflictException;
import dev.lipa.payouts.requests.RequestIdentity;
import dev.lipa.payouts.topup.TopUp;
import dev.lipa.payouts.topup.TopUps;
import jakarta.servlet.http.HttpServletRequest;
import java.math.BigDecimal;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Our addition, sandbox only (a live service has no such path): {@code POST /api/sandbox/v1/balance/top-up} (also
 * under {@code /balances})
 * {@code {currency, amount, referenceId}} adds {@code amount} (whole, above 0) of {@code currency} to the caller's
 * account. It honours an {@code Idempotency-Key} and a {@code referenceId} like payouts.
 */
@RestController
@ConditionalOnEnvironment(Environment.SANDBOX)
class TopUpController {

  static final String TOP_UP = "/api/sandbox/v1/balance/top-up";
  private static final String SCOPE = "POST " + TOP_UP;

  private final TopUps topUps;
  private final IdempotentEndpoint idempotent;

  TopUpController(TopUps topUps, IdempotentEndpoint idempotent) {
    this.topUps = topUps;
    this.idempotent = idempotent;
  }

  @PostMapping(path = {TOP_UP, "/api/sandbox/v1/balances/top-up"}, consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<?> topUp(@RequestBody JsonNode body, HttpServletRequest request) {
    JsonFields fields = JsonFields.of(body);
    String key = IdempotencyKeys.readKey(request.getHeader(IdempotencyKeys.HEADER), fields.errors());
    String code = fields.text("currency", true, 0);
    Currency currency = null;
    if (code != null) {
      currency = Currency.of(code).orElse(null);
      if (currency == null) {
        fields.errors().add("currency", "currency must be one of " + Currency.codes());
      }
    }
    BigDecimal amount = fields.positiveAmount("amount", true, true);
    String referenceId = RequestIdentity.readReferenceId(fields);
    fields.errors().throwIfAny();
    OrganisationId caller = Caller.organisation(request);
    String fingerprint = RequestFingerprint.of(body);
    Currency checked = currency;
    // both spellings of the path are one endpoint: a key or referenceId used on one is used on the other
    return idempotent.execute(new IdempotentRequest(caller, SCOPE, key, fingerprint), claim -> {
      OnceOnly.Result<TopUp> execution;
      try {
        execution = topUps.topUp(checked, amount, new RequestIdentity(caller, SCOPE, fingerprint, referenceId,
            claim == null ? null : claim.id()));
      } catch (RequestConflictException e) {
        throw ApiException.conflict(e.getMessage());
      }
      ResponseEntity.BodyBuilder response = ResponseEntity.ok();
      if (execution.replayed()) {
        response.header(IdempotencyKeys.REPLAYED_HEADER, "true");
      }
      return response.body(Envelope.ok("balance topped up", View.of(execution.record())));
    });
  }

  /** The account's balance right after the top-up, with the top-up's own fields. */
  @JsonPropertyOrder({"currency", "available", "reserved", "requestId", "amount", "referenceId"})
  record View(String currency, BigDecimal available, BigDecimal reserved, String requestId, BigDecimal amount,
      String referenceId) {

    static View of(TopUp topUp) {
      return new View(topUp.currency().name(), topUp.balanceAfter().available(), topUp.balanceAfter().reserved(),
          topUp.requestId().toString(), topUp.amount(), topUp.referenceId());
    }
  }
}
