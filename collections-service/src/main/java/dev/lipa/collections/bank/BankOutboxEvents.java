package dev.lipa.collections.bank;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.outbox.OutboxEvent;
import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kafka contracts of bank collections (this service owns them), both keyed by the record's uuid (requestId):
 * {@value #RECEIVED} on {@value Topics#COLLECTIONS}, and, when the organisation has a collectionCallbackUrl,
 * {@code callback.requested} of kind {@value #CALLBACK_KIND} on {@value Topics#CALLBACKS} whose body is the record
 * without its organisation object.
 */
@Component
public class BankOutboxEvents {

  public static final String RECEIVED = "bank.collection.received";
  public static final String CALLBACK_REQUESTED = "callback.requested";
  public static final String CALLBACK_KIND = "bank";

  private final JsonMapper json;
  private final StackEnvironment stack;
  private final Clock clock;
  private final ZoneId zone;

  public BankOutboxEvents(JsonMapper json, Clock clock, CollectionsProperties properties, StackEnvironment stack) {
    this.json = json;
    this.clock = clock;
    this.stack = stack;
    this.zone = properties.zone();
  }

  public List<OutboxEvent> of(BankCollection collection) {
    String key = collection.uuid().toString();
    List<OutboxEvent> events = new ArrayList<>(2);
    Map<String, Object> received = new LinkedHashMap<>();
    received.put("requestId", key);
    received.put("source", collection.source());
    received.put("transactionref", collection.transactionref());
    received.put("accountnumber", collection.accountnumber());
    received.put("amount", collection.amount());
    received.put("transactiondate", collection.transactiondate().toString());
    received.put("customerid", collection.customerid());
    received.put("paymentmode", collection.paymentmode());
    received.put("description", collection.description());
    events.add(record(stack.topic(Topics.COLLECTIONS), key, RECEIVED, collection, received));
    if (collection.callbackUrl() != null) {
      Map<String, Object> callback = new LinkedHashMap<>();
      callback.put("callbackId", collection.callbackId().toString());
      callback.put("requestId", key);
      callback.put("url", collection.callbackUrl());
      callback.put("kind", CALLBACK_KIND);
      callback.put("body", BankCollectionRecord.of(collection, null, zone));
      events.add(record(stack.topic(Topics.CALLBACKS), key, CALLBACK_REQUESTED, collection, callback));
    }
    return events;
  }

  private OutboxEvent record(String topic, String key, String type, BankCollection collection,
      Map<String, Object> data) {
    EventEnvelope envelope = new EventEnvelope(UUID.randomUUID().toString(), type, 1, clock.instant(),
        collection.organisationId().value(), data);
    return OutboxEvent.of(topic, key, envelope, json);
  }
}
