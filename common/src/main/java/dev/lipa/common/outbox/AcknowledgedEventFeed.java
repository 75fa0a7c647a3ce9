package dev.lipa.common.outbox;

import dev.lipa.common.tracing.TraceContexts;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Acts on a service's own events of some types once Kafka has acknowledged them, in the process that published them:
 * a listener for {@link Outbox#onAcknowledged} that stands where a consumer of the service's own topic would (the
 * sandbox rails answer accepted payments this way). Each wanted event is read from its envelope and handed on in a
 * consumer span of the event's own trace. An event that cannot be read is the writer's defect, logged and skipped: the
 * record it describes is still in the store, where the service's sweeps find it.
 *
 * @param <T> what the service makes of one event
 */
public final class AcknowledgedEventFeed<T> implements Consumer<OutboxEvent> {

  private static final Logger log = LoggerFactory.getLogger(AcknowledgedEventFeed.class);

  private final String name;
  private final String marker;
  private final Predicate<String> wantedType;
  private final Function<JsonNode, T> reader;
  private final Consumer<T> action;
  private final JsonMapper json;
  private final TraceContexts tracing;

  /**
   * @param name the span's name, and the feed's in the log
   * @param marker text every wanted event's payload contains (its type as the writer spells it), so the others are
   *     skipped without parsing them; an event that merely mentions it is parsed and its type checked
   * @param wantedType the envelope types to act on
   * @param reader what an event of a wanted type says (throws when it cannot be read)
   * @param action what is done with it, on the outbox's thread (must not block for long; idempotent, as a republished
   *     event is acknowledged again)
   */
  public AcknowledgedEventFeed(String name, String marker, Predicate<String> wantedType, Function<JsonNode, T> reader,
      Consumer<T> action, JsonMapper json, TraceContexts tracing) {
    this.name = name;
    this.marker = marker;
    this.wantedType = wantedType;
    this.reader = reader;
    this.action = action;
    this.json = json;
    this.tracing = tracing;
  }

  @Override
  public void accept(OutboxEvent event) {
    if (!event.payload().contains(marker)) {
      return;
    }
    T item;
    try {
      JsonNode envelope = json.readTree(event.payload());
      if (!wantedType.test(envelope.path("type").asString(""))) {
        return;
      }
      item = reader.apply(envelope);
    } catch (RuntimeException e) {
      log.error("{}: event {} not readable, skipped (the store's sweeps still find its record): {}", name,
          event.eventId(), e.toString());
      return;
    }
    tracing.consume(event.traceparent(), name, () -> action.accept(item));
  }
}
