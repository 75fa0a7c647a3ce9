package dev.lipa.collections.stk;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.outbox.OutboxEvent;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kafka contracts of the STK feature (this service owns them; the AsyncAPI document describes them):
 * {@code stk.accepted}, {@code stk.succeeded} and {@code stk.failed} on {@value Topics#COLLECTIONS}, and
 * {@code callback.requested} on {@value Topics#CALLBACKS}; every record keyed by the requestId.
 */
@Component
public class StkOutboxEvents {

  public static final String ACCEPTED = "stk.accepted";
  public static final String SUCCEEDED = "stk.succeeded";
  public static final String FAILED = "stk.failed";
  public static final String CALLBACK_REQUESTED = "callback.requested";
  /** The dispatcher's {@code kind}: which payment family a callback belongs to. */
  public static final String CALLBACK_KIND = "stk";

  private final JsonMapper json;
  private final StackEnvironment stack;
  private final Clock clock;

  public StkOutboxEvents(JsonMapper json, Clock clock, StackEnvironment stack) {
    this.json = json;
    this.clock = clock;
    this.stack = stack;
  }

  public List<OutboxEvent> toOutbox(List<StkEvent> events) {
    return events.stream().map(this::toOutbox).toList();
  }

  OutboxEvent toOutbox(StkEvent event) {
    String key = event.requestId().toString();
    return switch (event) {
      case StkEvent.Accepted accepted -> {
        Map<String, Object> data = transaction(accepted.requestId(), accepted.referenceId(),
            accepted.phoneNumber(), accepted.amount(), accepted.currency());
        data.put("status", StkStatus.PENDING.name());
        yield record(stack.topic(Topics.COLLECTIONS), key, ACCEPTED, event, data);
      }
      case StkEvent.Completed completed -> {
        Map<String, Object> data = transaction(completed.requestId(), completed.referenceId(),
            completed.phoneNumber(), completed.amount(), completed.currency());
        data.put("status", completed.status().name());
        data.put("resultCode", completed.resultCode());
        data.put("resultDescription", completed.resultDescription());
        data.put("receipt", completed.receipt());
        String type = completed.status() == StkStatus.SUCCESS ? SUCCEEDED : FAILED;
        yield record(stack.topic(Topics.COLLECTIONS), key, type, event, data);
      }
      case StkEvent.CallbackRequested callback -> {
        // exactly the spec's STK callback body; the dispatcher POSTs it as it is (the currency is the merchant's
        // own request's, and is in the record and the domain events)
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("requestId", callback.requestId().toString());
        body.put("status", callback.status().name());
        body.put("amount", callback.amount());
        body.put("phoneNumber", callback.phoneNumber());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("callbackId", callback.callbackId().toString());
        data.put("requestId", callback.requestId().toString());
        data.put("url", callback.url());
        data.put("kind", CALLBACK_KIND);
        data.put("body", body);
        yield record(stack.topic(Topics.CALLBACKS), key, CALLBACK_REQUESTED, event, data);
      }
    };
  }

  private static Map<String, Object> transaction(RequestId requestId, String referenceId, String phoneNumber,
      java.math.BigDecimal amount, StkCurrency currency) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("requestId", requestId.toString());
    data.put("referenceId", referenceId);
    data.put("phoneNumber", phoneNumber);
    data.put("amount", amount);
    data.put("currency", currency.name());
    return data;
  }

  private OutboxEvent record(String topic, String key, String type, StkEvent event, Map<String, Object> data) {
    EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), type, 1, clock.instant(),
        event.organisationId().value(), data);
    return OutboxEvent.of(topic, key, envelope, json);
  }
}
