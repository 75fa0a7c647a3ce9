package dev.lipa.payouts.payout.rail.sandbox;

import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.json.Money;
import dev.lipa.common.outbox.AcknowledgedEventFeed;
import dev.lipa.common.tracing.TraceContexts;
import dev.lipa.payouts.payout.PayoutOutboxEvents;
import dev.lipa.payouts.payout.PayoutStore;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutRail;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds accepted payouts to the sandbox rail in process: when Kafka has acknowledged a payout's accepted event,
 * whichever replica's write or sweep published it, that replica's rail is told (as collections-service's
 * {@code SandboxRailFeed} does for STK pushes). The service does not consume its own topic for this. What a crash loses
 * before the rail answers, the overdue sweep asks again; an event republished after a crash orders a second,
 * identical outcome, which the compare-and-set ignores.
 */
@Component
@ConditionalOnEnvironment(Environment.SANDBOX)
@ConditionalOnProperty(name = "lipa.payouts.sandbox.enabled", havingValue = "true", matchIfMissing = true)
class SandboxPayoutFeed {

  private static final String ACCEPTED_TYPE_END = "." + PayoutOutboxEvents.ACCEPTED;

  SandboxPayoutFeed(PayoutRail rail, JsonMapper json, PayoutStore payouts, ObjectProvider<TraceContexts> tracing) {
    payouts.onAcknowledged(new AcknowledgedEventFeed<>("sandbox rail", ACCEPTED_TYPE_END + "\"",
        type -> type.endsWith(ACCEPTED_TYPE_END), SandboxPayoutFeed::order, rail::pay, json,
        tracing.getIfAvailable(() -> TraceContexts.NONE)));
  }

  /** The order an accepted payout asks the rail for. */
  static PayoutOrder order(JsonNode envelope) {
    JsonNode data = envelope.path("data");
    String receiver = text(data, "customerName");
    if (receiver == null && text(data, "receiverFirstName") != null) {
      receiver = text(data, "receiverFirstName") + " " + text(data, "receiverLastName");
    }
    return new PayoutOrder(OrganisationId.of(envelope.path("organisationId").asString()),
        RequestId.of(UUID.fromString(data.path("requestId").asString())), text(data, "kind"),
        text(data, "phoneNumber"), text(data, "businessNumber"), text(data, "accountNumber"),
        Money.fromEvent(data.get("amount")), text(data, "currency"), receiver);
  }

  private static String text(JsonNode data, String field) {
    JsonNode node = data.path(field);
    return node.isString() ? node.stringValue() : null;
  }
}
