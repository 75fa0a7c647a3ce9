package dev.lipa.checkout.mpesa;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.kafka.RecordJson;
import dev.lipa.common.kafka.UnprocessableRecordException;
import dev.lipa.common.json.Money;
import java.math.BigDecimal;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Follows STK outcomes on payments.collections.v1 with checkout's own consumer group. Deduplication is by the
 * attempt's state (a natural key: one outcome per attempt) and, for a payment that arrives after its session expired,
 * by the push's requestId among the session's late payments, so a redelivered, republished or replayed event changes
 * nothing. An outcome of a checkout push that cannot be read goes to this consumer's dead letters.
 */
@Component
class StkOutcomeListener {

  static final String GROUP = "checkout-stk-outcomes";

  private static final String CHECKOUT_REFERENCE = "\"chk_";

  private final MpesaPayments payments;
  private final JsonMapper json;

  StkOutcomeListener(MpesaPayments payments, JsonMapper json) {
    this.payments = payments;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP + Topics.OfEnvironment.GROUP_SUFFIX,
      topics = Topics.OfEnvironment.COLLECTIONS)
  void onCollectionEvent(String value) {
    if (value == null || !value.contains(CHECKOUT_REFERENCE)) {
      // most of the topic is pushes checkout did not start: skipped without parsing (every event of a checkout
      // push carries its referenceId, which starts with chk_; a record that merely mentions it is parsed and checked)
      return;
    }
    JsonNode event = RecordJson.parse(json, value);
    String type = event.path("type").asString("");
    if (!type.equals("stk.succeeded") && !type.equals("stk.failed")) {
      return;
    }
    JsonNode data = event.path("data");
    String referenceId = data.path("referenceId").asString(null);
    if (referenceId == null || MpesaPayments.parse(referenceId).isEmpty()) {
      // not a push checkout started (merchants choose their own referenceIds, chk_ ones included)
      return;
    }
    String organisationId = event.path("organisationId").asString(null);
    if (organisationId == null || organisationId.isEmpty()) {
      throw new UnprocessableRecordException(
          "the outcome of checkout attempt " + referenceId + " has no organisationId");
    }
    boolean succeeded = type.equals("stk.succeeded");
    // a store failure propagates: the platform's error handler retries the record, paused, rather than lose an outcome
    payments.applyOutcome(new MpesaPayments.StkOutcome(OrganisationId.of(organisationId), referenceId,
        stkRequestId(referenceId, data.path("requestId").asString(null)), succeeded,
        succeeded ? amount(referenceId, data) : null, data.path("receipt").asString(null),
        data.path("resultDescription").asString(null)));
  }

  /** What a payment took: a late payment is recorded with it, so a payment without a readable amount is unprocessable. */
  private static BigDecimal amount(String referenceId, JsonNode data) {
    try {
      return Money.fromEvent(data.get("amount"));
    } catch (RuntimeException e) {
      throw new UnprocessableRecordException("the payment of checkout attempt " + referenceId
          + " has no valid amount", e);
    }
  }

  /** The push's requestId; null when the event has none (the attempt's own note of it then decides). */
  private static RequestId stkRequestId(String referenceId, String text) {
    if (text == null) {
      return null;
    }
    try {
      return RequestId.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UnprocessableRecordException(
          "the outcome of checkout attempt " + referenceId + " has a requestId that is no UUID", e);
    }
  }
}
