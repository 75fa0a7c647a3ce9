package dev.lipa.common.outbox;

import dev.lipa.common.events.EventEnvelope;
import java.util.Objects;
import org.bson.Document;
import tools.jackson.databind.json.JsonMapper;

/**
 * One Kafka record waiting in an aggregate's document: where it goes ({@code topic}, {@code key}) and what it says
 * ({@code payload}, the JSON text of an {@link EventEnvelope}). {@code eventId} is the envelope's id, so consumers
 * deduplicate a republished event.
 */
public record OutboxEvent(String eventId, String topic, String key, String payload) {

  static final String EVENT_ID = "eventId";
  static final String TOPIC = "topic";
  static final String KEY = "key";
  static final String PAYLOAD = "payload";

  public OutboxEvent {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(payload, "payload");
  }

  /** The event of an envelope, serialized once now so that a republication sends the very same bytes. */
  public static OutboxEvent of(String topic, String key, EventEnvelope envelope, JsonMapper json) {
    return new OutboxEvent(envelope.eventId(), topic, key, json.writeValueAsString(envelope));
  }

  Document toDocument() {
    return new Document(EVENT_ID, eventId).append(TOPIC, topic).append(KEY, key).append(PAYLOAD, payload);
  }

  static OutboxEvent fromDocument(Document document) {
    return new OutboxEvent(document.getString(EVENT_ID), document.getString(TOPIC), document.getString(KEY),
        document.getString(PAYLOAD));
  }
}
