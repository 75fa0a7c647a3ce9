package dev.lipa.common.outbox;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
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
 * (or a Kafka outage) left behind. Owns its thread.
 *
 * <p><b>Safe on every replica at once, and each stale event republished once per grace period:</b> before publishing
 * a document's events the sweeper claims the document by a compare-and-set that moves its {@code outboxPendingSince}
 * from the value it read to now. Of two sweepers (two replicas) that read the same stale document, only the one whose
 * claim matched publishes; the other, or a sweeper that stalled between its read and its claim, matches nothing and
 * publishes nothing. The moved time also spaces the republications of an event Kafka keeps refusing by the grace
 * period instead of the sweep interval. Consumers deduplicate on eventId in any case; this keeps N replicas from
 * multiplying the republished traffic by N.
 *
 * <p><b>Oldest first, and a backlog drains at the broker's pace:</b> a sweep takes the documents pending longest
 * first (a claim moves a document to the back), and a sweep that claimed a whole batch is followed at once by the
 * next, for at most one sweep interval, instead of one batch per interval: after a long outage (a failed bulk
 * removal of acknowledged events alone leaves up to 500 documents stale at once) the backlog drains as fast as the
 * broker takes it, and an event Kafka refused is not left behind it.
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
    return pass().sent();
  }

  /** One sweep: the stale documents read (at most a batch), those this sweep claimed, and the events it sent. */
  record Pass(int read, int claimed, int sent) {

    /** A whole batch read and every document of it claimed: more may be waiting behind it. */
    boolean drainedAFullBatch(int batch) {
      return read >= batch && claimed == read;
    }
  }

  Pass pass() {
    Date cutoff = Date.from(clock.instant().minus(settings.gracePeriod()));
    // taken before the read: an event this process had in flight then and whose removal is written while the sweep
    // reads would otherwise look stale to this sweep and be published again
    Set<String> inFlightBefore = inFlight.snapshot();
    int sent = 0;
    int claimed = 0;
    List<Document> stale = collection.find(Filters.lt(Outbox.PENDING_SINCE, cutoff))
        .projection(Projections.include(Outbox.ID, Outbox.EVENTS, Outbox.PENDING_SINCE))
        .sort(Sorts.ascending(Outbox.PENDING_SINCE))
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
      if (!events.isEmpty() && claim(id, document.getDate(Outbox.PENDING_SINCE))) {
        log.info("republishing {} stale outbox event(s) of {} {}", events.size(), collection.getNamespace(), id);
        publisher.publish(id, events);
        sent += events.size();
        claimed++;
      }
    }
    return new Pass(stale.size(), claimed, sent);
  }

  /**
   * Moves the document's pending time from {@code seen} to now, if no one moved it since this sweep read it: the
   * right to republish its events for the next grace period (see the class comment).
   */
  private boolean claim(Object id, Date seen) {
    return collection.updateOne(Filters.and(Filters.eq(Outbox.ID, id), Filters.eq(Outbox.PENDING_SINCE, seen)),
        Updates.set(Outbox.PENDING_SINCE, Date.from(clock.instant()))).getMatchedCount() == 1;
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
      long until = System.nanoTime() + settings.sweepInterval().toNanos();
      Pass pass;
      do {
        pass = pass();
      } while (pass.drainedAFullBatch(settings.sweepBatch()) && System.nanoTime() < until
          && !Thread.currentThread().isInterrupted());
    } catch (RuntimeException e) {
      log.warn("outbox sweep of {} failed: {}", collection.getNamespace(), e.toString());
    }
  }
}
