package dev.lipa.payouts.payout.rail.sandbox;

import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.kafka.RecordJson;
import dev.lipa.common.kafka.UnprocessableRecordException;
import dev.lipa.common.json.Money;
import dev.lipa.payouts.payout.PayoutOutboxEvents;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutRail;
import java.util.UUID;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds accepted payouts to the sandbox rail. A redelivered (or replayed) {@code *.accepted} only schedules a second,
 * identical outcome, which the payout's compare-and-set and the ledger's hold ignore.
 */
@Component
@ConditionalOnEnvironment(Environment.SANDBOX)
@ConditionalOnProperty(name = "lipa.payouts.sandbox.enabled", havingValue = "true", matchIfMissing = true)
class SandboxPayoutListener {

  static final String GROUP = "payouts-sandbox-rail";

  private final PayoutRail rail;
  private final JsonMapper json;

  SandboxPayoutListener(PayoutRail rail, JsonMapper json) {
    this.rail = rail;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP + Topics.OfEnvironment.GROUP_SUFFIX,
      topics = Topics.OfEnvironment.PAYOUTS)
  void onPayoutEvent(String value) {
    PayoutOrder order = order(value);
    if (order != null) {
      rail.pay(order);
    }
  }

  /** The order an accepted payout asks the rail for; null for other events; refused when unreadable. */
  private PayoutOrder order(String value) {
    if (value == null) {
      return null;
    }
    JsonNode event = RecordJson.parse(json, value);
    if (!event.path("type").asString("").endsWith("." + PayoutOutboxEvents.ACCEPTED)) {
      return null;
    }
    try {
      JsonNode data = event.path("data");
      String receiver = text(data, "customerName");
      if (receiver == null && text(data, "receiverFirstName") != null) {
        receiver = text(data, "receiverFirstName") + " " + text(data, "receiverLastName");
      }
      return new PayoutOrder(OrganisationId.of(event.path("organisationId").asString()),
          RequestId.of(UUID.fromString(data.path("requestId").asString())), text(data, "kind"),
          text(data, "phoneNumber"), text(data, "businessNumber"), text(data, "accountNumber"),
          Money.fromEvent(data.get("amount")), text(data, "currency"), receiver);
    } catch (RuntimeException e) {
      // reading the event is pure: what fails here fails on every retry (the overdue sweep still covers the payout)
      throw new UnprocessableRecordException("not a valid accepted payout: " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode data, String field) {
    JsonNode node = data.path(field);
    return node.isString() ? node.stringValue() : null;
  }
}
