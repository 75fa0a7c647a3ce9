package dev.lipa.collections.stk.rail.daraja;

import dev.lipa.collections.stk.StkOutboxEvents;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.kafka.RecordJson;
import dev.lipa.common.kafka.UnprocessableRecordException;
import dev.lipa.common.json.Money;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds accepted STK pushes of a live stack to the Daraja rail. A redelivered or replayed {@code stk.accepted} finds
 * the push claimed in {@link StkRequestLog} and prompts nobody a second time.
 *
 * <p>Registered in every environment, so that every listener of the service is seen to run with the platform's error
 * handling, but started only in a live stack: elsewhere there is no Daraja rail to feed.
 */
@Component
class DarajaStkListener {

  /** Started in a live stack only: elsewhere there is no Daraja rail to feed. */
  /**
   * Consumes in live only; {@code lipa.daraja.listener.auto-startup=false} keeps it stopped (a test context of a live
   * stack beside another one on the same broker, which must not take that one's records).
   */
  static final String LIVE_ONLY =
      "#{'${lipa.environment:sandbox}' == 'live' and '${lipa.daraja.listener.auto-startup:true}' == 'true'}";
  static final String GROUP = "collections-daraja-rail";
  private static final String ACCEPTED_TYPE = "\"" + StkOutboxEvents.ACCEPTED + "\"";

  private final ObjectProvider<DarajaStkRail> rail;
  private final JsonMapper json;

  DarajaStkListener(ObjectProvider<DarajaStkRail> rail, JsonMapper json) {
    this.rail = rail;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP + Topics.OfEnvironment.GROUP_SUFFIX,
      topics = Topics.OfEnvironment.COLLECTIONS, autoStartup = LIVE_ONLY)
  void onCollectionEvent(String value) {
    if (value == null || !value.contains(ACCEPTED_TYPE)) {
      return; // outcomes, mostly: skipped without parsing
    }
    JsonNode event = RecordJson.parse(json, value);
    if (!StkOutboxEvents.ACCEPTED.equals(event.path("type").asString(""))) {
      return;
    }
    StkPrompt prompt;
    try {
      JsonNode data = event.path("data");
      prompt = new StkPrompt(OrganisationId.of(event.path("organisationId").asString()),
          RequestId.of(UUID.fromString(data.path("requestId").asString())), data.path("phoneNumber").asString(),
          Money.fromEvent(data.get("amount")), data.path("currency").asString());
    } catch (RuntimeException e) {
      throw new UnprocessableRecordException("not a valid accepted STK push: " + e.getMessage(), e);
    }
    rail.ifAvailable(r -> r.sendPrompt(prompt));
  }
}
