package dev.lipa.collections.stk.rail.sandbox;

import dev.lipa.collections.stk.StkOutboxEvents;
import dev.lipa.collections.stk.StkPushStore;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRail;
import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.json.Money;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.tracing.TraceContexts;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds accepted STK pushes to the sandbox rail in process: when Kafka has acknowledged a push's {@code stk.accepted},
 * whichever replica's write or sweep published it, that replica's rail is told. The service does not consume its own
 * topic for this (a consumer group, a fetch and a decode of every record of the topic, two of three of them
 * outcomes). The acknowledgement comes after the push is stored and its event is durable, as a consumed record did;
 * what a crash loses before the rail answers, the overdue sweep asks again, as before. An event republished after a
 * crash schedules a second, identical outcome, which the compare-and-set ignores.
 */
@Component
@ConditionalOnEnvironment(Environment.SANDBOX)
@ConditionalOnProperty(name = "lipa.collections.sandbox.enabled", havingValue = "true", matchIfMissing = true)
class SandboxRailFeed {

  private static final Logger log = LoggerFactory.getLogger(SandboxRailFeed.class);
  private static final String ACCEPTED_TYPE = "\"" + StkOutboxEvents.ACCEPTED + "\"";

  private final StkRail rail;
  private final JsonMapper json;
  private final TraceContexts tracing;

  SandboxRailFeed(StkRail rail, JsonMapper json, StkPushStore pushes, ObjectProvider<TraceContexts> tracing) {
    this.rail = rail;
    this.json = json;
    this.tracing = tracing.getIfAvailable(() -> TraceContexts.NONE);
    pushes.onAcknowledged(this::onAcknowledged);
  }

  void onAcknowledged(OutboxEvent event) {
    if (!event.payload().contains(ACCEPTED_TYPE)) {
      // the outcomes and callback requests of the pushes: skipped without parsing them (our own writer puts the type
      // as a plain JSON string; an event that merely mentions it is parsed and its type checked below)
      return;
    }
    StkPrompt prompt = prompt(event);
    if (prompt != null) {
      // in the push's own trace, as the consumer span of a Kafka listener would be
      tracing.consume(event.traceparent(), "sandbox rail", () -> rail.sendPrompt(prompt));
    }
  }

  /** The prompt an accepted push asks for; null for another event type or one that cannot be read. */
  private StkPrompt prompt(OutboxEvent event) {
    try {
      JsonNode envelope = json.readTree(event.payload());
      if (!StkOutboxEvents.ACCEPTED.equals(envelope.path("type").asString(""))) {
        return null;
      }
      JsonNode data = envelope.path("data");
      return new StkPrompt(OrganisationId.of(envelope.path("organisationId").asString()),
          RequestId.of(UUID.fromString(data.path("requestId").asString())), data.path("phoneNumber").asString(),
          Money.fromEvent(data.get("amount")), data.path("currency").asString());
    } catch (RuntimeException e) {
      // our own event, so this is a defect; the overdue sweep still answers the push from the store
      log.error("accepted STK push event {} not readable; the overdue sweep will answer it: {}", event.eventId(),
          e.toString());
      return null;
    }
  }
}
