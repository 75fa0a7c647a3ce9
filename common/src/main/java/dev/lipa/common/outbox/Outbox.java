package dev.lipa.common.outbox;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.bson.Document;
import dev.lipa.common.tracing.TraceContexts;
import org.bson.conversions.Bson;

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
 * <p>This class is the write API; its parts each own their state and threads and know nothing of it: the
 * {@link OutboxPublisher} (workers handing events to Kafka), the {@link HeldAcknowledgements} (the held removals and
 * their writer thread), the {@link OutboxSweeper} (its thread) and the {@link InFlightEvents} they share.
 *
 * <p>The producer must be idempotent with {@code acks=all} and String serializers; the caller owns and closes it.
 */
public final class Outbox implements AutoCloseable {

  /** The array of pending events in every aggregate document that uses the outbox. */
  public static final String EVENTS = "outbox";
  /** When the oldest still pending event was written; absent when nothing is pending. */
  public static final String PENDING_SINCE = "outboxPendingSince";
  static final String ID = "_id";
  /** A state change's answer: whether it matched, which the document's id tells, and nothing more to decode. */
  private static final FindOneAndUpdateOptions ID_ONLY = new FindOneAndUpdateOptions()
      .returnDocument(ReturnDocument.AFTER).projection(Projections.include(ID));

  private final MongoCollection<Document> collection;
  private final Clock clock;
  private final TraceContexts tracing;
  private final InFlightEvents inFlight = new InFlightEvents();
  private final HeldAcknowledgements acks;
  private final OutboxPublisher publisher;
  private final OutboxSweeper sweeper;

  public Outbox(MongoCollection<Document> collection, Producer<String, String> producer, OutboxSettings settings,
      Clock clock) {
    this(collection, producer, settings, clock, TraceContexts.NONE);
  }

  /**
   * With {@code tracing}, every event is stored with the trace context current when it is written (see
   * {@link OutboxEvent#traceparent()}) and relayed under a span of its own, a child of that context.
   */
  public Outbox(MongoCollection<Document> collection, Producer<String, String> producer, OutboxSettings settings,
      Clock clock, TraceContexts tracing) {
    this.collection = collection;
    this.clock = clock;
    this.tracing = tracing;
    // a real MongoDB serves the sweep from this; the embedded store ignores non-unique indexes and scans
    collection.createIndex(Indexes.ascending(PENDING_SINCE),
        new IndexOptions().name("outbox_pending_since").sparse(true));
    acks = new HeldAcknowledgements(collection, inFlight, settings.ackDelay());
    publisher = new OutboxPublisher(producer, inFlight, acks, collection.getNamespace().getFullName(), tracing);
    sweeper = new OutboxSweeper(collection, settings, clock, inFlight, publisher);
  }

  /**
   * Inserts a new aggregate's document together with its events (one write), then publishes them. Errors of the
   * insert (such as a duplicate key) reach the caller and nothing is published.
   */
  public void insert(Document document, List<OutboxEvent> written) {
    List<OutboxEvent> events = underCurrentTrace(written);
    if (!events.isEmpty()) {
      document.put(EVENTS, toDocuments(events));
      document.put(PENDING_SINCE, Date.from(clock.instant()));
    }
    collection.insertOne(document);
    publisher.publish(document.get(ID), events);
  }

  /**
   * Applies a state change and appends its events in one atomic {@code findOneAndUpdate}. The filter names the
   * expected current state, which makes the change a compare-and-set: when it matches nothing (a late or duplicate
   * transition) nothing is written, nothing is published and false is returned. Otherwise the events are published and
   * true is returned. The store answers with the document's id alone (a projection), not the document: every caller
   * knows what it wrote. {@code update} must not touch the outbox fields.
   */
  public boolean update(Bson filter, Bson update, List<OutboxEvent> written) {
    List<OutboxEvent> events = underCurrentTrace(written);
    Bson change = update;
    if (!events.isEmpty()) {
      // $min keeps the time of the oldest pending event when earlier events are still waiting for their ack
      change = Updates.combine(update, Updates.pushEach(EVENTS, toDocuments(events)),
          Updates.min(PENDING_SINCE, Date.from(clock.instant())));
    }
    Document after = collection.findOneAndUpdate(filter, change, ID_ONLY);
    if (after != null) {
      publisher.publish(after.get(ID), events);
    }
    return after != null;
  }

  /**
   * Like {@link #update(Bson, Bson, List)} for the document with this {@code _id}, and the same write also removes the
   * events of the document that Kafka acknowledged and whose removal is still held back (one write instead of two).
   * When the outbox no longer holds exactly those events, the change is applied the plain way and the removal stays
   * held.
   */
  public boolean update(Object documentId, Bson filter, Bson update, List<OutboxEvent> written) {
    List<OutboxEvent> events = underCurrentTrace(written);
    HeldAcknowledgements.Held ack = acks.take(documentId);
    if (ack != null) {
      Bson guarded = Filters.and(filter, ack.exactly(documentId));
      Bson change = events.isEmpty()
          ? Updates.combine(update, Updates.unset(EVENTS), Updates.unset(PENDING_SINCE))
          : Updates.combine(update, Updates.set(EVENTS, toDocuments(events)),
              Updates.set(PENDING_SINCE, Date.from(clock.instant())));
      Document after;
      try {
        after = collection.findOneAndUpdate(guarded, change, ID_ONLY);
      } catch (RuntimeException e) {
        acks.putBack(documentId, ack);
        throw e;
      }
      if (after != null) {
        inFlight.release(ack.eventIds());
        publisher.publish(after.get(ID), events);
        return true;
      }
      acks.putBack(documentId, ack);
    }
    return update(filter, update, events);
  }

  /**
   * Hands events stored in the document with this id to Kafka, without waiting; each acknowledged event is then
   * removed from the document. Events this process is already publishing are skipped.
   */
  public void publish(Object documentId, List<OutboxEvent> events) {
    publisher.publish(documentId, events);
  }

  /**
   * Calls {@code listener} with every event of this outbox that Kafka acknowledged from now on, whichever write or
   * sweep published it, on one of the outbox's own threads (it must not block for long). An event republished after a
   * crash or an outage is acknowledged, and passed on, again: the listener must be idempotent. A failing listener is
   * logged and changes nothing else. A service uses it to act on its own event in process (the sandbox rail answers an
   * accepted push) instead of consuming its own topic.
   */
  public void onAcknowledged(Consumer<OutboxEvent> listener) {
    publisher.onAcknowledged(listener);
  }

  /** Republishes the events of documents pending for longer than the grace period; returns how many were sent. */
  public int sweep() {
    return sweeper.sweep();
  }

  /** Starts sweeping every {@link OutboxSettings#sweepInterval()}. */
  public Outbox start() {
    sweeper.start();
    return this;
  }

  /**
   * Stops the sweeper and waits briefly for acknowledgements in progress; the producer stays open. The order is the
   * point: the sweeper first (it publishes no more), then the publisher (the producer's flush turns every answer still
   * due into a held acknowledgement), then the held acknowledgements (their writer interrupted, not waited for, so a
   * store that is gone cannot hold up the shutdown; what is held then written once, for a few seconds at most).
   */
  @Override
  public synchronized void close() {
    sweeper.close();
    publisher.close();
    acks.close();
  }

  /** The events, each with the trace context current now unless it has one (the one it was created under). */
  private List<OutboxEvent> underCurrentTrace(List<OutboxEvent> events) {
    if (events.isEmpty()) {
      return events;
    }
    String context = tracing.current();
    return context == null ? events : events.stream().map(event -> event.underTrace(context)).toList();
  }

  private static List<Document> toDocuments(List<OutboxEvent> events) {
    return events.stream().map(OutboxEvent::toDocument).toList();
  }
}
