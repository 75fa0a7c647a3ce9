package dev.lipa.collections.stk.rail.sandbox;

import dev.lipa.collections.stk.StkOutboxEvents;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRail;
import dev.lipa.common.events.Topics;
import dev.lipa.common.json.Money;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds accepted STK pushes to the sandbox rail. A redelivered {@code stk.accepted} only schedules a second,
 * identical outcome, which the compare-and-set ignores; so no eventId bookkeeping is needed here.
 */
@Component
@ConditionalOnProperty(name = "lipa.collections.sandbox.enabled", havingValue = "true", matchIfMissing = true)
class SandboxRailListener {

  static final String GROUP = "collections-sandbox-rail";
  private static final Logger log = LoggerFactory.getLogger(SandboxRailListener.class);
  private static final String ACCEPTED_TYPE = "\"" + StkOutboxEvents.ACCEPTED + "\"";

  private final StkRail rail;
  private final JsonMapper json;

  SandboxRailListener(StkRail rail, JsonMapper json) {
    this.rail = rail;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP, topics = Topics.COLLECTIONS)
  void onCollectionEvent(String value) {
    if (!value.contains(ACCEPTED_TYPE)) {
      // two of every three records on the topic are outcomes: skipped without parsing them (our producer writes the
      // type as a plain JSON string; a record that merely mentions it is parsed and its type checked below)
      return;
    }
    StkPrompt prompt;
    try {
      JsonNode event = json.readTree(value);
      if (!StkOutboxEvents.ACCEPTED.equals(event.path("type").asString(""))) {
        return;
      }
      JsonNode data = event.path("data");
      prompt = new StkPrompt(event.path("organisationId").asString(),
          UUID.fromString(data.path("requestId").asString()), data.path("phoneNumber").asString(),
          Money.fromEvent(data.get("amount")), data.path("currency").asString());
    } catch (RuntimeException e) {
      // a record we cannot read must not block the partition; the overdue sweep still covers its push
      log.warn("unreadable record on {} skipped: {}", Topics.COLLECTIONS, e.toString());
      return;
    }
    rail.sendPrompt(prompt);
  }
}
