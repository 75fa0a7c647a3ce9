package dev.lipa.common.outbox;

import com.mongodb.client.MongoCollection;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single-document outbox of one collection: an aggregate's document carries the events its last state changes
 * caused, written in the same atomic write as the change, so a change is never stored without its events nor
 * published without being stored (the store has no multi-document transactions).
 *
 * <p>After a write succeeds the events are handed to Kafka at once (no polling on the hot path). When Kafka has
 * acknowledged every event of that write, their removal from the document is <b>held back</b> for at most
 * {@link OutboxSettings#ackDelay()}: if the document's next state change comes meanwhile through
 * {@link #update(Object, Bson, Bson, List)}, that same write also replaces the acknowledged events by the new ones
 * (guarded: only while the outbox holds exactly the acknowledged events), so the acknowledgement costs no write at all.
 * Otherwise the held removals are written together, as one bulk of guarded updates: if the document's outbox holds
 * exactly those events it {@code $unset}s both {@code outbox} and {@code outboxPendingSince}; only when other events
 * arrived meanwhile does it fall back to a {@code $pull} by eventId plus a guarded clean-up (rare). A crash loses the
 * held removals, never an event: the sweeper republishes them (consumers deduplicate on eventId).
 *
 * <p>A sweeper republishes the events of documents whose {@code outboxPendingSince} is older than the grace period:
 * what a crash (or a Kafka outage) left behind. Publishing twice is allowed; consumers deduplicate on eventId. The
 * sweep is safe to run on every replica at once.
 *
 * <p>The producer must be idempotent with {@code acks=all} and String serializers; the caller owns and closes it.
 */
public final class Outbox implements AutoCloseable {

  /** The array of pending events in every aggregate document that uses the outbox. */
  public static final String EVENTS = "outbox";
  /** When the oldest still pending event was written; absent when nothing is pending. */
  public static final String PENDING_SINCE = "outboxPendingSince";

  private static final Logger log = LoggerFactory.getLogger(Outbox.class);
  private static final String ID = "_id";
  /** At most this many documents' acknowledgements per bulk write. */
  private static final int ACK_BULK = 500;

  private final MongoCollection<Document> collection;
  private final Producer<String, String> producer;
  private final OutboxSettings settings;
  private final Clock clock;
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
  /** Events this process is publishing right now: the sweeper leaves them alone instead of sending them again. */
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
  /** Acknowledged events whose removal waits for the document's next change, by document id. */
  private final Map<Object, HeldAck> held = new ConcurrentHashMap<>();
  private final ScheduledExecutorService ackWriter;
  /** Serialises the writes of held acknowledgements (the periodic writer's and close()'s). */
  private final Object ackLock = new Object();
  private volatile ScheduledExecutorService sweeper;

  public Outbox(MongoCollection<Document> collection, Producer<String, String> producer, OutboxSettings settings,
      Clock clock) {
    this.collection = collection;
    this.producer = producer;
    this.settings = settings;
    this.clock = clock;
    // a real MongoDB serves the sweep from this; the embedded store ignores non-unique indexes and scans
    collection.createIndex(Indexes.ascending(PENDING_SINCE),
        new IndexOptions().name("outbox_pending_since").sparse(true));
    ackWriter = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().daemon().name("outbox-acks-" + collection.getNamespace().getCollectionName()).factory());
    long period = Math.clamp(settings.ackDelay().toMillis() / 4, 10, 250);
    ackWriter.scheduleWithFixedDelay(() -> writeHeld(false), period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Inserts a new aggregate's document together with its events (one write), then publishes them. Errors of the
   * insert (such as a duplicate key) reach the caller and nothing is published.
   */
  public void insert(Document document, List<OutboxEvent> events) {
    if (!events.isEmpty()) {
      document.put(EVENTS, toDocuments(events));
      document.put(PENDING_SINCE, Date.from(clock.instant()));
    }
    collection.insertOne(document);
    publish(document.get(ID), events);
  }

  /**
   * Applies a state change and appends its events in one atomic {@code findOneAndUpdate}. The filter names the
   * expected current state, which makes the change a compare-and-set: when it matches nothing (a late or duplicate
   * transition) nothing is written, nothing is published and null is returned. Otherwise the events are published and
   * the document as it is after the update is returned. {@code update} must not touch the outbox fields.
   */
  public Document update(Bson filter, Bson update, List<OutboxEvent> events) {
    Bson change = update;
    if (!events.isEmpty()) {
      // $min keeps the time of the oldest pending event when earlier events are still waiting for their ack
      change = Updates.combine(update, Updates.pushEach(EVENTS, toDocuments(events)),
          Updates.min(PENDING_SINCE, Date.from(clock.instant())));
    }
    Document after = collection.findOneAndUpdate(filter, change,
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
    if (after != null) {
      publish(after.get(ID), events);
    }
    return after;
  }

  /**
   * Like {@link #update(Bson, Bson, List)} for the document with this {@code _id}, and the same write also removes the
   * events of the document that Kafka acknowledged and whose removal is still held back (one write instead of two).
   * When the outbox no longer holds exactly those events, the change is applied the plain way and the removal stays
   * held.
   */
  public Document update(Object documentId, Bson filter, Bson update, List<OutboxEvent> events) {
    HeldAck ack = held.remove(documentId);
    if (ack != null) {
      Bson guarded = Filters.and(filter, Filters.eq(ID, documentId), Filters.size(EVENTS, ack.eventIds().size()),
          Filters.all(EVENTS + ".eventId", ack.eventIds()));
      Bson change = events.isEmpty()
          ? Updates.combine(update, Updates.unset(EVENTS), Updates.unset(PENDING_SINCE))
          : Updates.combine(update, Updates.set(EVENTS, toDocuments(events)),
              Updates.set(PENDING_SINCE, Date.from(clock.instant())));
      Document after;
      try {
        after = collection.findOneAndUpdate(guarded, change,
            new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
      } catch (RuntimeException e) {
        hold(documentId, ack);
        throw e;
      }
      if (after != null) {
        ack.eventIds().forEach(inFlight::remove);
        publish(after.get(ID), events);
        return after;
      }
      hold(documentId, ack);
    }
    return update(filter, update, events);
  }

  /**
   * Hands events stored in the document with this id to Kafka, without waiting; each acknowledged event is then
   * removed from the document. Events this process is already publishing are skipped.
   */
  public void publish(Object documentId, List<OutboxEvent> events) {
    List<OutboxEvent> mine = events.stream().filter(e -> inFlight.add(e.eventId())).toList();
    if (mine.isEmpty()) {
      return;
    }
    // on a worker, so that a request thread never waits for Kafka metadata or a full send buffer
    run(() -> send(documentId, mine));
  }

  /** Republishes the events of documents pending for longer than the grace period; returns how many were sent. */
  public int sweep() {
    Date cutoff = Date.from(clock.instant().minus(settings.gracePeriod()));
    int sent = 0;
    List<Document> stale = collection.find(Filters.lt(PENDING_SINCE, cutoff))
        .projection(Projections.include(ID, EVENTS, PENDING_SINCE))
        .limit(settings.sweepBatch())
        .into(new ArrayList<>());
    for (Document document : stale) {
      Object id = document.get(ID);
      List<Document> pending = document.getList(EVENTS, Document.class, List.of());
      if (pending.isEmpty()) {
        // a fallback acknowledgement emptied the array but could not clear the marker
        collection.updateOne(Filters.and(Filters.eq(ID, id),
                Filters.or(Filters.exists(EVENTS, false), Filters.size(EVENTS, 0))),
            Updates.combine(Updates.unset(EVENTS), Updates.unset(PENDING_SINCE)));
        continue;
      }
      List<OutboxEvent> events = pending.stream().map(OutboxEvent::fromDocument)
          .filter(e -> !inFlight.contains(e.eventId())).toList();
      if (!events.isEmpty()) {
        log.info("republishing {} stale outbox event(s) of {} {}", events.size(), collection.getNamespace(), id);
        publish(id, events);
        sent += events.size();
      }
    }
    return sent;
  }

  /** Starts sweeping every {@link OutboxSettings#sweepInterval()}. */
  public synchronized Outbox start() {
    if (sweeper == null) {
      sweeper = Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("outbox-sweeper-" + collection.getNamespace().getCollectionName())
              .factory());
      long period = settings.sweepInterval().toMillis();
      sweeper.scheduleWithFixedDelay(this::sweepSafely, period, period, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** Stops the sweeper and waits briefly for acknowledgements in progress; the producer stays open. */
  @Override
  public synchronized void close() {
    if (sweeper != null) {
      sweeper.shutdownNow();
      sweeper = null;
    }
    workers.shutdown();
    try {
      producer.flush();
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.warn("outbox of {} closed with events in flight: {}", collection.getNamespace(), e.toString());
    }
    ackWriter.shutdownNow();
    // the held removals, written while the store is still there; when it is not (a JVM going down, the store first),
    // the attempt is given up after a short wait rather than hold the shutdown: the sweeper republishes them later
    Thread writer = Thread.ofVirtual().name("outbox-close-acks").start(() -> writeHeld(true));
    try {
      writer.join(Duration.ofSeconds(3));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void sweepSafely() {
    try {
      sweep();
    } catch (RuntimeException e) {
      log.warn("outbox sweep of {} failed: {}", collection.getNamespace(), e.toString());
    }
  }

  private void send(Object documentId, List<OutboxEvent> events) {
    Batch batch = new Batch(documentId, events);
    for (OutboxEvent event : events) {
      try {
        producer.send(new ProducerRecord<>(event.topic(), event.key(), event.payload()),
            (metadata, failure) -> batch.done(event, failure));
      } catch (RuntimeException e) {
        batch.done(event, e);
      }
    }
  }

  /** Keeps the removal of acknowledged events until the document's next change or its due time, merged per document. */
  private void hold(Object documentId, HeldAck ack) {
    held.merge(documentId, ack, HeldAck::plus);
  }

  /** Writes the held removals that are due (all of them when closing), as bulks of guarded updates. */
  private void writeHeld(boolean all) {
    // its own lock, not the outbox's: a write stuck on an unreachable store (up to the driver's server selection
    // timeout) must not hold up close(), which interrupts it
    synchronized (ackLock) {
      writeHeldLocked(all);
    }
  }

  private void writeHeldLocked(boolean all) {
    long now = System.nanoTime();
    List<Map.Entry<Object, HeldAck>> due = new ArrayList<>();
    for (Map.Entry<Object, HeldAck> entry : held.entrySet()) {
      if ((all || entry.getValue().dueNanos() - now <= 0) && held.remove(entry.getKey(), entry.getValue())) {
        due.add(entry);
      }
    }
    for (int from = 0; from < due.size(); from += ACK_BULK) {
      List<Map.Entry<Object, HeldAck>> bulk = due.subList(from, Math.min(due.size(), from + ACK_BULK));
      try {
        acknowledge(bulk);
      } catch (RuntimeException e) {
        log.warn("removing acknowledged events of {} documents of {} failed, the sweeper will republish them: {}",
            bulk.size(), collection.getNamespace(), e.toString());
      } finally {
        bulk.forEach(entry -> entry.getValue().eventIds().forEach(inFlight::remove));
      }
    }
  }

  /**
   * Removes acknowledged events with as few writes as possible: one guarded update per document, all in one bulk;
   * only documents whose outbox holds other events as well get the fallback (rare).
   */
  private void acknowledge(List<Map.Entry<Object, HeldAck>> acks) {
    Bson clearAll = Updates.combine(Updates.unset(EVENTS), Updates.unset(PENDING_SINCE));
    List<UpdateOneModel<Document>> exact = acks.stream().map(ack -> new UpdateOneModel<Document>(
        Filters.and(Filters.eq(ID, ack.getKey()), Filters.size(EVENTS, ack.getValue().eventIds().size()),
            Filters.all(EVENTS + ".eventId", ack.getValue().eventIds())), clearAll)).toList();
    BulkWriteResult result = collection.bulkWrite(exact, new BulkWriteOptions().ordered(false));
    if (result.getMatchedCount() == acks.size()) {
      return;
    }
    List<Object> ids = acks.stream().map(Map.Entry::getKey).toList();
    List<String> eventIds = acks.stream().flatMap(ack -> ack.getValue().eventIds().stream()).toList();
    List<Object> others = collection.find(Filters.and(Filters.in(ID, ids), Filters.in(EVENTS + ".eventId", eventIds)))
        .projection(Projections.include(ID)).map(d -> d.get(ID)).into(new ArrayList<>());
    for (Map.Entry<Object, HeldAck> ack : acks) {
      if (others.contains(ack.getKey())) {
        collection.updateOne(Filters.eq(ID, ack.getKey()), new Document("$pull",
            new Document(EVENTS, new Document("eventId", new Document("$in", ack.getValue().eventIds())))));
        collection.updateOne(Filters.and(Filters.eq(ID, ack.getKey()), Filters.size(EVENTS, 0)), clearAll);
      }
    }
  }

  private void run(Runnable task) {
    try {
      workers.execute(task);
    } catch (RejectedExecutionException e) {
      task.run(); // closing: finish on the caller's thread rather than drop the work
    }
  }

  private static List<Document> toDocuments(List<OutboxEvent> events) {
    return events.stream().map(OutboxEvent::toDocument).toList();
  }

  /** The events of one publication; the last answer from Kafka triggers the acknowledgement write. */
  private final class Batch {

    private final Object documentId;
    private final List<OutboxEvent> events;
    private final List<String> acknowledged = new ArrayList<>();
    private final AtomicInteger outstanding;

    Batch(Object documentId, List<OutboxEvent> events) {
      this.documentId = documentId;
      this.events = events;
      this.outstanding = new AtomicInteger(events.size());
    }

    void done(OutboxEvent event, Exception failure) {
      if (failure == null) {
        synchronized (acknowledged) {
          acknowledged.add(event.eventId());
        }
      } else {
        log.warn("publishing event {} to {} failed, the sweeper will retry: {}", event.eventId(), event.topic(),
            failure.toString());
      }
      if (outstanding.decrementAndGet() == 0) {
        // the producer's I/O thread must not block on the store
        run(this::finish);
      }
    }

    private void finish() {
      List<String> ids;
      synchronized (acknowledged) {
        ids = List.copyOf(acknowledged);
      }
      // events Kafka refused are the sweeper's again at once; acknowledged ones stay in flight until removed
      events.stream().map(OutboxEvent::eventId).filter(id -> !ids.contains(id)).forEach(inFlight::remove);
      if (!ids.isEmpty()) {
        hold(documentId, new HeldAck(ids, System.nanoTime() + settings.ackDelay().toNanos()));
        if (settings.ackDelay().isZero()) {
          writeHeld(false);
        }
      }
    }
  }

  /** Acknowledged events of one document whose removal is held back until {@code dueNanos} (System.nanoTime). */
  private record HeldAck(List<String> eventIds, long dueNanos) {

    HeldAck plus(HeldAck other) {
      List<String> ids = new ArrayList<>(eventIds);
      other.eventIds().stream().filter(id -> !ids.contains(id)).forEach(ids::add);
      return new HeldAck(List.copyOf(ids), Math.min(dueNanos, other.dueNanos()));
    }
  }
}
