package dev.lipa.payouts.payout.rail.sandbox;

import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.json.Money;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.tracing.TraceContexts;
import dev.lipa.payouts.payout.PayoutOutboxEvents;
import dev.lipa.payouts.payout.PayoutStore;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutRail;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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

  private static final Logger log = LoggerFactory.getLogger(SandboxPayoutFeed.class);
  private static final String ACCEPTED_TYPE_END = "." + PayoutOutboxEvents.ACCEPTED + "\"";

  private final PayoutRail rail;
  private final JsonMapper json;
  private final TraceContexts tracing;

  SandboxPayoutFeed(PayoutRail rail, JsonMapper json, PayoutStore payouts, ObjectProvider<TraceContexts> tracing) {
    this.rail = rail;
    this.json = json;
    this.tracing = tracing.getIfAvailable(() -> TraceContexts.NONE);
    payouts.onAcknowledged(this::onAcknowledged);
  }

  void onAcknowledged(OutboxEvent event) {
    if (!event.payload().contains(ACCEPTED_TYPE_END)) {
      // the payouts' outcomes and callback requests: skipped without parsing them
      return;
    }
    PayoutOrder order = order(event);
    if (order != null) {
      // in the payout's own trace, as the consumer span of a Kafka listener would be
      tracing.consume(event.traceparent(), "sandbox rail", () -> rail.pay(order));
    }
  }

  /** The order an accepted payout asks the rail for; null for other events or one that cannot be read. */
  private PayoutOrder order(OutboxEvent event) {
    try {
      JsonNode envelope = json.readTree(event.payload());
      if (!envelope.path("type").asString("").endsWith("." + PayoutOutboxEvents.ACCEPTED)) {
        return null;
      }
      JsonNode data = envelope.path("data");
      String receiver = text(data, "customerName");
      if (receiver == null && text(data, "receiverFirstName") != null) {
        receiver = text(data, "receiverFirstName") + " " + text(data, "receiverLastName");
      }
      return new PayoutOrder(OrganisationId.of(envelope.path("organisationId").asString()),
          RequestId.of(UUID.fromString(data.path("requestId").asString())), text(data, "kind"),
          text(data, "phoneNumber"), text(data, "businessNumber"), text(data, "accountNumber"),
          Money.fromEvent(data.get("amount")), text(data, "currency"), receiver);
    } catch (RuntimeException e) {
      // our own event, so this is a defect; the overdue sweep still answers the payout from the store
      log.error("accepted payout event {} not readable; the overdue sweep will answer it: {}", event.eventId(),
          e.toString());
      return null;
    }
  }

  private static String text(JsonNode data, String field) {
    JsonNode node = data.path(field);
    return node.isString() ? node.stringValue() : null;
  }
}
