package dev.lipa.common.outbox;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The events this process is publishing right now, by eventId: from the hand-over to Kafka until their removal from
 * the document is written (or Kafka refused them). The sweeper leaves them alone instead of sending them again.
 */
final class InFlightEvents {

  private final Set<String> eventIds = ConcurrentHashMap.newKeySet();

  /** Marks these events as in flight; returns those that were not already. */
  List<OutboxEvent> claim(List<OutboxEvent> events) {
    return events.stream().filter(e -> eventIds.add(e.eventId())).toList();
  }

  /** The events in flight now, copied. */
  Set<String> snapshot() {
    return Set.copyOf(eventIds);
  }

  boolean contains(String eventId) {
    return eventIds.contains(eventId);
  }

  /** The events are no longer this process's: written away, or the sweeper's again. */
  void release(Collection<String> ids) {
    eventIds.removeAll(ids);
  }
}
