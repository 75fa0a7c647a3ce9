package dev.lipa.collections.stk.rail.sandbox;

import dev.lipa.collections.stk.StkOutboxEvents;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRail;
import dev.lipa.common.environment.ConditionalOnEnvironment;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.kafka.RecordJson;
import dev.lipa.common.kafka.UnprocessableRecordException;
import dev.lipa.common.json.Money;
import java.util.UUID;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds accepted STK pushes to the sandbox rail. A redelivered (or replayed) {@code stk.accepted} only schedules a
 * second, identical outcome, which the compare-and-set ignores; so no eventId bookkeeping is needed here.
 */
@Component
@ConditionalOnEnvironment(Environment.SANDBOX)
@ConditionalOnProperty(name = "lipa.collections.sandbox.enabled", havingValue = "true", matchIfMissing = true)
class SandboxRailListener {

  static final String GROUP = "collections-sandbox-rail";
  private static final String ACCEPTED_TYPE = "\"" + StkOutboxEvents.ACCEPTED + "\"";

  private final StkRail rail;
  private final JsonMapper json;

  SandboxRailListener(StkRail rail, JsonMapper json) {
    this.rail = rail;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP + Topics.OfEnvironment.GROUP_SUFFIX,
      topics = Topics.OfEnvironment.COLLECTIONS)
  void onCollectionEvent(String value) {
    if (value == null || !value.contains(ACCEPTED_TYPE)) {
      // two of every three records on the topic are outcomes: skipped without parsing them (our producer writes the
      // type as a plain JSON string; a record that merely mentions it is parsed and its type checked below)
      return;
    }
    StkPrompt prompt = prompt(value);
    if (prompt != null) {
      rail.sendPrompt(prompt);
    }
  }

  /** The prompt an accepted push asks for; null for another event type; refused when unreadable. */
  private StkPrompt prompt(String value) {
    JsonNode event = RecordJson.parse(json, value);
    if (!StkOutboxEvents.ACCEPTED.equals(event.path("type").asString(""))) {
      return null;
    }
    try {
      JsonNode data = event.path("data");
      return new StkPrompt(OrganisationId.of(event.path("organisationId").asString()),
          RequestId.of(UUID.fromString(data.path("requestId").asString())), data.path("phoneNumber").asString(),
          Money.fromEvent(data.get("amount")), data.path("currency").asString());
    } catch (RuntimeException e) {
      // reading the event is pure: what fails here fails on every retry (the overdue sweep still covers the push)
      throw new UnprocessableRecordException("not a valid accepted STK push: " + e.getMessage(), e);
    }
  }
}
