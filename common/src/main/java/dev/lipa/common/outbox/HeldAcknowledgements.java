package dev.lipa.common.outbox;

import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The removals of events Kafka acknowledged, held back per document for at most {@link OutboxSettings#ackDelay()} so
 * that the document's next state change can carry them ({@link #take}); what nobody takes in time is written by this
 * class's own thread as bulks of guarded updates. Owns that thread and the held removals.
 */
final class HeldAcknowledgements implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HeldAcknowledgements.class);
  /** At most this many documents' acknowledgements per bulk write. */
  private static final int ACK_BULK = 500;

  private final MongoCollection<Document> collection;
  private final InFlightEvents inFlight;
  private final Duration ackDelay;
  /** Acknowledged events whose removal waits for the document's next change, by document id. */
  private final Map<Object, Held> held = new ConcurrentHashMap<>();
  private final ScheduledExecutorService writer;
  /** Serialises the writes of held acknowledgements (the periodic writer's and close()'s). */
  private final Object writeLock = new Object();

  HeldAcknowledgements(MongoCollection<Document> collection, InFlightEvents inFlight, Duration ackDelay) {
    this.collection = collection;
    this.inFlight = inFlight;
    this.ackDelay = ackDelay;
    writer = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().daemon().name("outbox-acks-" + collection.getNamespace().getCollectionName()).factory());
    long period = Math.clamp(ackDelay.toMillis() / 4, 10, 250);
    writer.scheduleWithFixedDelay(() -> write(false), period, period, TimeUnit.MILLISECONDS);
  }

  /** Kafka acknowledged these events of the document: their removal waits {@code ackDelay} (zero: written now). */
  void acknowledged(Object documentId, List<String> eventIds) {
    hold(documentId, new Held(eventIds, System.nanoTime() + ackDelay.toNanos()));
    if (ackDelay.isZero()) {
      write(false);
    }
  }

  /** The held removal of this document, taken out so that its next change carries it; null when none is held. */
  Held take(Object documentId) {
    return held.remove(documentId);
  }

  /** Holds a taken removal again: the change that was to carry it did not. */
  void putBack(Object documentId, Held ack) {
    hold(documentId, ack);
  }

  /**
   * Stops the periodic writer (interrupting a write stuck on an unreachable store) and writes every held removal while
   * the store is still there; when it is not (a JVM going down, the store first), the attempt is given up after a
   * short wait rather than hold the shutdown: the sweeper republishes them later.
   */
  @Override
  public void close() {
    writer.shutdownNow();
    Thread last = Thread.ofVirtual().name("outbox-close-acks").start(() -> write(true));
    try {
      last.join(Duration.ofSeconds(3));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void hold(Object documentId, Held ack) {
    held.merge(documentId, ack, Held::plus);
  }

  /** Writes the held removals that are due (all of them when closing). */
  private void write(boolean all) {
    // its own lock, not the outbox's: a write stuck on an unreachable store (up to the driver's server selection
    // timeout) must not hold up close(), which interrupts it
    synchronized (writeLock) {
      writeLocked(all);
    }
  }

  private void writeLocked(boolean all) {
    long now = System.nanoTime();
    List<Map.Entry<Object, Held>> due = new ArrayList<>();
    for (Map.Entry<Object, Held> entry : held.entrySet()) {
      if ((all || entry.getValue().dueNanos() - now <= 0) && held.remove(entry.getKey(), entry.getValue())) {
        due.add(entry);
      }
    }
    for (int from = 0; from < due.size(); from += ACK_BULK) {
      List<Map.Entry<Object, Held>> bulk = due.subList(from, Math.min(due.size(), from + ACK_BULK));
      try {
        remove(bulk);
      } catch (RuntimeException e) {
        log.warn("removing acknowledged events of {} documents of {} failed, the sweeper will republish them: {}",
            bulk.size(), collection.getNamespace(), e.toString());
      } finally {
        bulk.forEach(entry -> inFlight.release(entry.getValue().eventIds()));
      }
    }
  }

  /**
   * Removes acknowledged events with as few writes as possible: one guarded update per document, all in one bulk;
   * only documents whose outbox holds other events as well get the fallback (rare).
   */
  private void remove(List<Map.Entry<Object, Held>> acks) {
    Bson clearAll = Updates.combine(Updates.unset(Outbox.EVENTS), Updates.unset(Outbox.PENDING_SINCE));
    List<UpdateOneModel<Document>> exact = acks.stream()
        .map(ack -> new UpdateOneModel<Document>(ack.getValue().exactly(ack.getKey()), clearAll)).toList();
    BulkWriteResult result = collection.bulkWrite(exact, new BulkWriteOptions().ordered(false));
    if (result.getMatchedCount() == acks.size()) {
      return;
    }
    List<Object> ids = acks.stream().map(Map.Entry::getKey).toList();
    List<String> eventIds = acks.stream().flatMap(ack -> ack.getValue().eventIds().stream()).toList();
    List<Object> others = collection.find(Filters.and(Filters.in(Outbox.ID, ids),
            Filters.in(Outbox.EVENTS + ".eventId", eventIds)))
        .projection(Projections.include(Outbox.ID)).map(d -> d.get(Outbox.ID)).into(new ArrayList<>());
    for (Map.Entry<Object, Held> ack : acks) {
      if (others.contains(ack.getKey())) {
        collection.updateOne(Filters.eq(Outbox.ID, ack.getKey()), new Document("$pull",
            new Document(Outbox.EVENTS, new Document("eventId", new Document("$in", ack.getValue().eventIds())))));
        collection.updateOne(Filters.and(Filters.eq(Outbox.ID, ack.getKey()), Filters.size(Outbox.EVENTS, 0)),
            clearAll);
      }
    }
  }

  /** Acknowledged events of one document whose removal is held back until {@code dueNanos} (System.nanoTime). */
  record Held(List<String> eventIds, long dueNanos) {

    /** Matches the document with this id while its outbox holds exactly these events. */
    Bson exactly(Object documentId) {
      return Filters.and(Filters.eq(Outbox.ID, documentId), Filters.size(Outbox.EVENTS, eventIds.size()),
          Filters.all(Outbox.EVENTS + ".eventId", eventIds));
    }

    Held plus(Held other) {
      List<String> ids = new ArrayList<>(eventIds);
      other.eventIds().stream().filter(id -> !ids.contains(id)).forEach(ids::add);
      return new Held(List.copyOf(ids), Math.min(dueNanos, other.dueNanos()));
    }
  }
}
