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
import dev.lipa.common.outbox.AcknowledgedEventFeed;
import dev.lipa.common.tracing.TraceContexts;
import java.util.UUID;
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

  SandboxRailFeed(StkRail rail, JsonMapper json, StkPushStore pushes, ObjectProvider<TraceContexts> tracing) {
    pushes.onAcknowledged(new AcknowledgedEventFeed<>("sandbox rail", "\"" + StkOutboxEvents.ACCEPTED + "\"",
        StkOutboxEvents.ACCEPTED::equals, SandboxRailFeed::prompt, rail::sendPrompt, json,
        tracing.getIfAvailable(() -> TraceContexts.NONE)));
  }

  /** The prompt an accepted push asks for. */
  static StkPrompt prompt(JsonNode envelope) {
    JsonNode data = envelope.path("data");
    return new StkPrompt(OrganisationId.of(envelope.path("organisationId").asString()),
        RequestId.of(UUID.fromString(data.path("requestId").asString())), data.path("phoneNumber").asString(),
        Money.fromEvent(data.get("amount")), data.path("currency").asString());
  }
}
