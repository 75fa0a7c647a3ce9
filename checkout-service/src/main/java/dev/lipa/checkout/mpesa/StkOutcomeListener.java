package dev.lipa.checkout.mpesa;

import dev.lipa.common.events.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Follows STK outcomes on payments.collections.v1 with checkout's own consumer group. Deduplication is by the
 * attempt's state (a natural key: one outcome per attempt), so a redelivered or republished event changes nothing.
 */
@Component
class StkOutcomeListener {

  static final String GROUP = "checkout-stk-outcomes";
  private static final Logger log = LoggerFactory.getLogger(StkOutcomeListener.class);

  private static final String CHECKOUT_REFERENCE = "\"chk_";

  private final MpesaPayments payments;
  private final JsonMapper json;

  StkOutcomeListener(MpesaPayments payments, JsonMapper json) {
    this.payments = payments;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP, topics = Topics.COLLECTIONS)
  void onCollectionEvent(String value) {
    if (!value.contains(CHECKOUT_REFERENCE)) {
      // most of the topic is pushes checkout did not start: skipped without parsing (every event of a checkout
      // push carries its referenceId, which starts with chk_; a record that merely mentions it is parsed and checked)
      return;
    }
    JsonNode event;
    try {
      event = json.readTree(value);
    } catch (RuntimeException e) {
      // a record we cannot read must not block the partition
      log.warn("unreadable record on {} skipped: {}", Topics.COLLECTIONS, e.toString());
      return;
    }
    String type = event.path("type").asString("");
    if (!type.equals("stk.succeeded") && !type.equals("stk.failed")) {
      return;
    }
    JsonNode data = event.path("data");
    String referenceId = data.path("referenceId").asString(null);
    if (referenceId == null || !referenceId.startsWith("chk_")) {
      return;
    }
    // a store failure propagates: the container retries the record rather than lose an outcome
    payments.applyOutcome(event.path("organisationId").asString(null), referenceId,
        data.path("requestId").asString(null), type.equals("stk.succeeded"),
        data.path("resultDescription").asString(null));
  }
}
