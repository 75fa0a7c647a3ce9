package dev.lipa.common.outbox;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.tracing.TraceContexts;
import java.util.Objects;
import org.bson.Document;
import tools.jackson.databind.json.JsonMapper;

/**
 * One Kafka record waiting in an aggregate's document: where it goes ({@code topic}, {@code key}) and what it says
 * ({@code payload}, the JSON text of an {@link EventEnvelope}). {@code eventId} is the envelope's id, so consumers
 * deduplicate a republished event. {@code traceparent} is the W3C trace context the event was written under (null
 * outside a trace): the relay and the sweeper send it as the record's {@code traceparent} header, so a relay later, or
 * by another replica, continues the trace that caused the event.
 */
public record OutboxEvent(String eventId, String topic, String key, String payload, String traceparent) {

  static final String EVENT_ID = "eventId";
  static final String TOPIC = "topic";
  static final String KEY = "key";
  static final String PAYLOAD = "payload";
  static final String TRACEPARENT = TraceContexts.TRACEPARENT;

  public OutboxEvent {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(payload, "payload");
  }

  /** An event not written under a trace yet: the outbox gives it the current one when it stores it. */
  public OutboxEvent(String eventId, String topic, String key, String payload) {
    this(eventId, topic, key, payload, null);
  }

  /** This event under that trace context, unless it has one already. */
  OutboxEvent underTrace(String context) {
    return traceparent != null || context == null ? this : new OutboxEvent(eventId, topic, key, payload, context);
  }

  /** The event of an envelope, serialized once now so that a republication sends the very same bytes. */
  public static OutboxEvent of(String topic, String key, EventEnvelope envelope, JsonMapper json) {
    return new OutboxEvent(envelope.eventId(), topic, key, json.writeValueAsString(envelope));
  }

  Document toDocument() {
    Document document = new Document(EVENT_ID, eventId).append(TOPIC, topic).append(KEY, key).append(PAYLOAD, payload);
    if (traceparent != null) {
      document.append(TRACEPARENT, traceparent);
    }
    return document;
  }

  static OutboxEvent fromDocument(Document document) {
    return new OutboxEvent(document.getString(EVENT_ID), document.getString(TOPIC), document.getString(KEY),
        document.getString(PAYLOAD), document.getString(TRACEPARENT));
  }
}
