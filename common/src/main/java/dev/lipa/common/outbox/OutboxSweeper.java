package dev.lipa.common.outbox;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Updates;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Republishes the events of documents whose {@code outboxPendingSince} is older than the grace period: what a crash
 * (or a Kafka outage) left behind. Safe on every replica at once (consumers deduplicate on eventId). Owns its thread.
 */
final class OutboxSweeper implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(OutboxSweeper.class);

  private final MongoCollection<Document> collection;
  private final OutboxSettings settings;
  private final Clock clock;
  private final InFlightEvents inFlight;
  private final OutboxPublisher publisher;
  private ScheduledExecutorService thread;

  OutboxSweeper(MongoCollection<Document> collection, OutboxSettings settings, Clock clock, InFlightEvents inFlight,
      OutboxPublisher publisher) {
    this.collection = collection;
    this.settings = settings;
    this.clock = clock;
    this.inFlight = inFlight;
    this.publisher = publisher;
  }

  /** Republishes the events of documents pending for longer than the grace period; returns how many were sent. */
  int sweep() {
    Date cutoff = Date.from(clock.instant().minus(settings.gracePeriod()));
    // taken before the read: an event this process had in flight then and whose removal is written while the sweep
    // reads would otherwise look stale to this sweep and be published again
    Set<String> inFlightBefore = inFlight.snapshot();
    int sent = 0;
    List<Document> stale = collection.find(Filters.lt(Outbox.PENDING_SINCE, cutoff))
        .projection(Projections.include(Outbox.ID, Outbox.EVENTS, Outbox.PENDING_SINCE))
        .limit(settings.sweepBatch())
        .into(new ArrayList<>());
    for (Document document : stale) {
      Object id = document.get(Outbox.ID);
      List<Document> pending = document.getList(Outbox.EVENTS, Document.class, List.of());
      if (pending.isEmpty()) {
        // a fallback acknowledgement emptied the array but could not clear the marker
        collection.updateOne(Filters.and(Filters.eq(Outbox.ID, id),
                Filters.or(Filters.exists(Outbox.EVENTS, false), Filters.size(Outbox.EVENTS, 0))),
            Updates.combine(Updates.unset(Outbox.EVENTS), Updates.unset(Outbox.PENDING_SINCE)));
        continue;
      }
      List<OutboxEvent> events = pending.stream().map(OutboxEvent::fromDocument)
          .filter(e -> !inFlightBefore.contains(e.eventId()) && !inFlight.contains(e.eventId())).toList();
      if (!events.isEmpty()) {
        log.info("republishing {} stale outbox event(s) of {} {}", events.size(), collection.getNamespace(), id);
        publisher.publish(id, events);
        sent += events.size();
      }
    }
    return sent;
  }

  /** Sweeps every {@link OutboxSettings#sweepInterval()} from now on; a second call changes nothing. */
  synchronized void start() {
    if (thread == null) {
      thread = Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("outbox-sweeper-" + collection.getNamespace().getCollectionName())
              .factory());
      long period = settings.sweepInterval().toMillis();
      thread.scheduleWithFixedDelay(this::sweepSafely, period, period, TimeUnit.MILLISECONDS);
    }
  }

  /** Stops sweeping (interrupting a sweep in progress). */
  @Override
  public synchronized void close() {
    if (thread != null) {
      thread.shutdownNow();
      thread = null;
    }
  }

  private void sweepSafely() {
    try {
      sweep();
    } catch (RuntimeException e) {
      log.warn("outbox sweep of {} failed: {}", collection.getNamespace(), e.toString());
    }
  }
}
