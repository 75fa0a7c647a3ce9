package dev.lipa.payouts.deallocation;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.outbox.OutboxEvent;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kafka contract of transfers (this service owns it): {@code allocation.succeeded} and
 * {@code deallocation.succeeded} on {@value Topics#PAYOUTS}, keyed by the transfer's requestId, whose envelope belongs
 * to the paying organisation (the parent for an allocation, the sub-account for a de-allocation) and whose data names
 * both sides. ({@code .failed} is only written for a transfer stored FAILED before such transfers were refused.)
 */
@Component
public class TransferOutboxEvents {

  private final JsonMapper json;
  private final StackEnvironment stack;
  private final Clock clock;

  public TransferOutboxEvents(JsonMapper json, Clock clock, StackEnvironment stack) {
    this.json = json;
    this.clock = clock;
    this.stack = stack;
  }

  /** The event of a transfer that reached its final status. */
  OutboxEvent completed(Transfer transfer) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("requestId", transfer.requestId().toString());
    data.put("referenceId", transfer.referenceId());
    data.put("parentOrganisationId", transfer.parentOrganisationId().value());
    data.put("subAccountId", transfer.subAccountId().value());
    data.put("initiatedBy", transfer.initiatedBy().value());
    data.put("amount", transfer.amount());
    data.put("currency", transfer.currency().name());
    data.put("status", transfer.status().name());
    String type = transfer.type().name().toLowerCase(Locale.ROOT) + "."
        + (transfer.status() == Transfer.Status.SUCCESS ? "succeeded" : "failed");
    // the event belongs to the paying organisation's stream; the data names both sides
    EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), type, 1, clock.instant(),
        transfer.payer().value(), data);
    return OutboxEvent.of(stack.topic(Topics.PAYOUTS), transfer.requestId().toString(), envelope, json);
  }
}
