package dev.lipa.payouts.payout.rail.sandbox;

import dev.lipa.common.events.Topics;
import dev.lipa.common.json.Money;
import dev.lipa.payouts.payout.PayoutOutboxEvents;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutRail;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds accepted payouts to the sandbox rail. A redelivered {@code *.accepted} only schedules a second, identical
 * outcome, which the payout's compare-and-set and the ledger's hold ignore.
 */
@Component
@ConditionalOnProperty(name = "lipa.payouts.sandbox.enabled", havingValue = "true", matchIfMissing = true)
class SandboxPayoutListener {

  static final String GROUP = "payouts-sandbox-rail";
  private static final Logger log = LoggerFactory.getLogger(SandboxPayoutListener.class);

  private final PayoutRail rail;
  private final JsonMapper json;

  SandboxPayoutListener(PayoutRail rail, JsonMapper json) {
    this.rail = rail;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP, topics = Topics.PAYOUTS)
  void onPayoutEvent(String value) {
    PayoutOrder order;
    try {
      JsonNode event = json.readTree(value);
      if (!event.path("type").asString("").endsWith("." + PayoutOutboxEvents.ACCEPTED)) {
        return;
      }
      JsonNode data = event.path("data");
      String receiver = text(data, "customerName");
      if (receiver == null && text(data, "receiverFirstName") != null) {
        receiver = text(data, "receiverFirstName") + " " + text(data, "receiverLastName");
      }
      order = new PayoutOrder(event.path("organisationId").asString(),
          UUID.fromString(data.path("requestId").asString()), text(data, "kind"), text(data, "phoneNumber"),
          text(data, "businessNumber"), text(data, "accountNumber"), Money.fromEvent(data.get("amount")),
          text(data, "currency"), receiver);
    } catch (RuntimeException e) {
      log.warn("unreadable record on {} skipped: {}", Topics.PAYOUTS, e.toString());
      return;
    }
    rail.pay(order);
  }

  private static String text(JsonNode data, String field) {
    JsonNode node = data.path(field);
    return node.isString() ? node.stringValue() : null;
  }
}
