package dev.lipa.payouts.payout.rail.daraja;

import dev.lipa.common.events.Topics;
import dev.lipa.common.kafka.RecordJson;
import dev.lipa.common.kafka.UnprocessableRecordException;
import dev.lipa.payouts.payout.Payouts;
import dev.lipa.payouts.payout.PayoutOutboxEvents;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds accepted payouts of a live stack to the Daraja rail. The order is read from the payout record itself (the
 * event names it), so the rail pays exactly what was reserved. A redelivered or replayed {@code *.accepted} finds the
 * payout claimed in {@link PayoutRequestLog} and pays nothing a second time.
 *
 * <p>Registered in every environment, so that every listener of the service is seen to run with the platform's error
 * handling, but started only in a live stack: elsewhere there is no Daraja rail to feed.
 */
@Component
class DarajaPayoutListener {

  /**
   * Consumes in live only; {@code lipa.daraja.listener.auto-startup=false} keeps it stopped (a test context of a live
   * stack beside another one on the same broker, which must not take that one's records).
   */
  static final String LIVE_ONLY =
      "#{'${lipa.environment:sandbox}' == 'live' and '${lipa.daraja.listener.auto-startup:true}' == 'true'}";
  static final String GROUP = "payouts-daraja-rail";

  private final ObjectProvider<DarajaPayoutRail> rail;
  private final Payouts payouts;
  private final JsonMapper json;

  DarajaPayoutListener(ObjectProvider<DarajaPayoutRail> rail, Payouts payouts, JsonMapper json) {
    this.rail = rail;
    this.payouts = payouts;
    this.json = json;
  }

  @KafkaListener(id = GROUP, groupId = GROUP + Topics.OfEnvironment.GROUP_SUFFIX,
      topics = Topics.OfEnvironment.PAYOUTS, autoStartup = LIVE_ONLY)
  void onPayoutEvent(String value) {
    if (value == null) {
      return;
    }
    JsonNode event = RecordJson.parse(json, value);
    if (!event.path("type").asString("").endsWith("." + PayoutOutboxEvents.ACCEPTED)) {
      return;
    }
    OrganisationId organisationId;
    RequestId requestId;
    try {
      organisationId = OrganisationId.of(event.path("organisationId").asString());
      requestId = RequestId.of(UUID.fromString(event.path("data").path("requestId").asString()));
    } catch (RuntimeException e) {
      throw new UnprocessableRecordException("not a valid accepted payout: " + e.getMessage(), e);
    }
    // the rail reads the payout record itself and pays only a PENDING one
    payouts.find(organisationId, requestId).map(Payouts::orderOf).ifPresent(order -> rail.ifAvailable(r -> r.pay(order)));
  }
}
