package dev.lipa.common.events;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * The one envelope of every Kafka record the platform produces. Consumers deduplicate on {@code eventId} and read
 * only the {@code data} fields they need.
 */
public record EventEnvelope(
    String eventId, String type, int version, Instant occurredAt, String organisationId, Map<String, Object> data) {

  public static EventEnvelope create(String type, String organisationId, Map<String, Object> data) {
    return new EventEnvelope(UUID.randomUUID().toString(), type, 1, Instant.now(), organisationId, data);
  }
}
