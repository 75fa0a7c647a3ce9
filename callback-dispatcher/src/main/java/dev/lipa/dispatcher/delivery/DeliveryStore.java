package dev.lipa.dispatcher.delivery;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.PushOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The {@code deliveries} collection: one document per callback, keyed by its callbackId ({@code _id}), carrying its
 * state, its schedule, its lease and its attempt log.
 *
 * <p>The attempt log is an array inside the delivery rather than a collection of its own: an attempt's entry and the
 * state change it causes are then one atomic write (the store has no transactions, and a crash can never leave a
 * logged attempt without its state change or the reverse), a delivery costs one write fewer per attempt, and the
 * delivery log a merchant asks for later is a single document read. The array stays small: it is bounded by the
 * schedule (10 attempts by default).
 *
 * <p>Merchant-facing reads always filter by organisation. Two queries go across organisations: the claim of due
 * deliveries (the dispatcher's own work queue) and the operators' dead-letter view and replay.
 */
@Component
public class DeliveryStore {

  static final String COLLECTION = "deliveries";

  private final MongoCollection<Document> deliveries;
  private final int attemptLogLimit;

  DeliveryStore(MongoClient client, @Value("${spring.mongodb.database}") String database,
      DispatcherProperties properties) {
    this.deliveries = client.getDatabase(database).getCollection(COLLECTION);
    this.attemptLogLimit = properties.attemptLogLimit();
    // the poller's due deliveries, oldest due first, and the delivery log: ranges of these, in their order
    deliveries.createIndex(Indexes.ascending("status", "nextAttemptAt"), new IndexOptions().name("due"));
    deliveries.createIndex(Indexes.ascending("organisationId", "requestId"), new IndexOptions().name("by_request"));
    deliveries.createIndex(Indexes.ascending("status", "deadAt"), new IndexOptions().name("dead_letters"));
    // The embedded store answers a query from an index only when the query's fields are exactly the index's keys;
    // anything else scans the whole collection, which makes every write O(collection size). These unique indexes
    // (trivially unique: they contain _id) match the compare-and-set filters of the hot path, one per key set.
    deliveries.createIndex(Indexes.ascending("_id", "organisationId"),
        new IndexOptions().name("cas_owner").unique(true));
    deliveries.createIndex(Indexes.ascending("_id", "status", "leaseToken"),
        new IndexOptions().name("cas_lease").unique(true));
  }

  /**
   * Stores the deliveries of a poll's callback requests with one unordered bulk write: an upsert per request, keyed by
   * its callbackId, that only sets fields when it creates the delivery. A redelivered Kafka record (or the same record
   * twice in one batch) therefore changes nothing, and never steals or resets the lease or state of the delivery that
   * exists. A request given a lease is created already leased to it (the same {@code leaseUntil}/{@code leaseToken}
   * a {@link #claim} writes), so the caller can make the first attempt at once without a claim; if the process dies
   * first, the lease expires and the poller claims the delivery as any other. Otherwise it is due at its
   * {@code due} for the poller.
   *
   * @return what happened to each request, in the order given
   * @throws com.mongodb.MongoException when the store failed for any other reason than a taken callbackId; the
   *     statements without an error were applied all the same (an unordered write), so storing the batch again is
   *     safe
   */
  public List<Stored> insertAll(List<Intake> intakes) {
    if (intakes.isEmpty()) {
      return List.of();
    }
    List<UpdateOneModel<Document>> upserts = new ArrayList<>(intakes.size());
    for (Intake intake : intakes) {
      upserts.add(new UpdateOneModel<>(ownerFilter(intake.request()), onInsert(intake),
          new UpdateOptions().upsert(true)));
    }
    Stored[] stored = new Stored[intakes.size()];
    Arrays.fill(stored, Stored.EXISTS);
    try {
      deliveries.bulkWrite(upserts, new BulkWriteOptions().ordered(false)).getUpserts()
          .forEach(upsert -> stored[upsert.getIndex()] = Stored.CREATED);
    } catch (MongoBulkWriteException e) {
      if (e.getWriteErrors().stream().anyMatch(error -> error.getCategory() != ErrorCategory.DUPLICATE_KEY)) {
        throw e;
      }
      e.getWriteResult().getUpserts().forEach(upsert -> stored[upsert.getIndex()] = Stored.CREATED);
      for (BulkWriteError error : e.getWriteErrors()) {
        // organisationId in the filter: a callbackId already taken by another organisation fails as a duplicate key
        // instead of silently attaching this request to a stranger's delivery; a concurrent upsert of the same
        // record that won the race (real replica sets do this) fails the same way but finds its own delivery
        Intake intake = intakes.get(error.getIndex());
        stored[error.getIndex()] =
            deliveries.countDocuments(ownerFilter(intake.request())) > 0 ? Stored.EXISTS : Stored.CONFLICT;
      }
    }
    return List.of(stored);
  }

  private static Document ownerFilter(CallbackRequest request) {
    return byId(request.callbackId()).append("organisationId", request.organisationId());
  }

  private static Bson onInsert(Intake intake) {
    CallbackRequest request = intake.request();
    Date at = Date.from(intake.at());
    List<Bson> onInsert = new ArrayList<>(List.of(
        Updates.setOnInsert("callbackId", request.callbackId()),
        Updates.setOnInsert("requestId", request.requestId()),
        Updates.setOnInsert("url", request.url()),
        Updates.setOnInsert("body", request.body()),
        Updates.setOnInsert("kind", request.kind()),
        Updates.setOnInsert("eventId", request.eventId()),
        Updates.setOnInsert("status", DeliveryStatus.PENDING.name()),
        Updates.setOnInsert("attempts", 0),
        Updates.setOnInsert("roundAttempts", 0),
        Updates.setOnInsert("nextAttemptAt", Date.from(intake.due())),
        Updates.setOnInsert("createdAt", at),
        Updates.setOnInsert("updatedAt", at),
        Updates.setOnInsert("attemptLog", List.of())));
    if (intake.lease() != null) {
      onInsert.add(Updates.setOnInsert("leaseUntil", Date.from(intake.lease().until())));
      onInsert.add(Updates.setOnInsert("leaseToken", intake.lease().token()));
    }
    return Updates.combine(onInsert);
  }

  /**
   * One request as the intake stores it.
   *
   * @param at when it was accepted (its createdAt)
   * @param due when the poller may attempt it; irrelevant while the lease holds
   * @param lease the lease of the attempt about to be made at once, or null to leave the delivery to the poller
   */
  public record Intake(CallbackRequest request, Instant at, Instant due, Lease lease) {
  }

  /** What {@link #insertAll} did with one request. */
  public enum Stored {
    /** The delivery is new: stored by this call. */
    CREATED,
    /** A delivery with this callbackId and organisation existed already; nothing changed. */
    EXISTS,
    /** The callbackId belongs to another organisation's delivery: a producer bug, nothing stored. */
    CONFLICT
  }

  /**
   * The ids of up to {@code limit} deliveries that are due (PENDING, next attempt due, not leased), longest due first.
   * One query per poll (a range of the {@code due} index, in its order) instead of one per claim; the claims that
   * follow go by {@code _id}.
   */
  public List<Due> findDue(Instant now, int limit) {
    Date at = Date.from(now);
    List<Due> due = new ArrayList<>();
    deliveries.find(dueFilter(at))
        .sort(Sorts.ascending("nextAttemptAt"))
        .projection(Projections.include("_id", "url"))
        .limit(limit)
        .forEach(doc -> due.add(new Due(doc.getString("_id"), doc.getString("url"))));
    return due;
  }

  /** A due delivery as {@link #findDue} lists it: enough to choose which to claim. */
  public record Due(String callbackId, String url) {
  }

  /**
   * Pushes back due deliveries that will not be claimed now (their destination is blocked), in one write, so they
   * stop heading the queue in front of everyone else's. Leased ones are left alone.
   */
  public void postpone(List<String> callbackIds, Instant now, Instant until) {
    if (callbackIds.isEmpty()) {
      return;
    }
    deliveries.updateMany(due(new Document("_id", new Document("$in", callbackIds)), Date.from(now)),
        Updates.set("nextAttemptAt", Date.from(until)));
  }

  /**
   * Leases one delivery found by {@link #findDue} if it is still due and free. Two pollers never get the same
   * delivery: the claim is one atomic findOneAndUpdate.
   */
  public Optional<Delivery> claim(String callbackId, Instant now, Lease lease) {
    // read by _id, judge in Java, then compare-and-set on the lease token seen: both steps use an index
    Document seen = deliveries.find(byId(callbackId)).projection(Projections.exclude("attemptLog", "body")).first();
    if (seen == null || !isDue(seen, now)) {
      return Optional.empty();
    }
    Document claimed = deliveries.findOneAndUpdate(
        byId(callbackId).append("status", DeliveryStatus.PENDING.name())
            .append("leaseToken", seen.getString("leaseToken")),
        Updates.combine(Updates.set("leaseUntil", Date.from(lease.until())), Updates.set("leaseToken", lease.token())),
        new FindOneAndUpdateOptions()
            .projection(Projections.exclude("attemptLog"))
            .returnDocument(ReturnDocument.AFTER));
    return Optional.ofNullable(claimed).map(DeliveryStore::toDelivery);
  }

  private static boolean isDue(Document doc, Instant now) {
    Date next = doc.getDate("nextAttemptAt");
    Date leaseUntil = doc.getDate("leaseUntil");
    return DeliveryStatus.PENDING.name().equals(doc.getString("status"))
        && next != null && !next.toInstant().isAfter(now)
        && (leaseUntil == null || !leaseUntil.toInstant().isAfter(now));
  }

  private static Bson dueFilter(Date at) {
    return due(new Document(), at);
  }

  /** Adds "due and not leased" to a filter: PENDING, next attempt due, no live lease. */
  private static Document due(Document filter, Date at) {
    return filter.append("status", DeliveryStatus.PENDING.name())
        .append("nextAttemptAt", new Document("$lte", at))
        .append("leaseUntil", new Document("$not", new Document("$gt", at)));
  }

  /**
   * A filter on {@code _id} plus other fields, written as one plain document: the embedded store finds a document by
   * its {@code _id} index only when {@code _id} is a top-level field of the query, and scans the whole collection for
   * an {@code $and} (which {@link Filters#and} produces), making every write O(collection size).
   */
  private static Document byId(String callbackId) {
    return new Document("_id", callbackId);
  }

  /**
   * Writes an attempt's result (its log entry and the state it leads to) if the attempt still holds the lease.
   *
   * @return false when the lease was lost (it expired and another worker claimed the delivery); the state is then
   *     left to that worker and only the log entry is kept
   */
  public boolean complete(Delivery delivery, Transition transition) {
    Date at = Date.from(transition.at());
    List<Bson> changes = new ArrayList<>(List.of(
        Updates.set("status", transition.status().name()),
        Updates.set("updatedAt", at),
        Updates.inc("attempts", 1),
        Updates.inc("roundAttempts", 1),
        logEntry(transition.attempt()),
        Updates.unset("leaseUntil"),
        Updates.unset("leaseToken")));
    switch (transition.status()) {
      case PENDING -> changes.add(Updates.set("nextAttemptAt", Date.from(transition.nextAttemptAt())));
      case DELIVERED -> changes.add(Updates.set("deliveredAt", at));
      case DEAD -> {
        changes.add(Updates.set("deadAt", at));
        changes.add(Updates.set("deadReason", transition.deadReason()));
      }
    }
    long matched = deliveries.updateOne(leased(delivery), Updates.combine(changes)).getMatchedCount();
    if (matched == 1) {
      return true;
    }
    deliveries.updateOne(byId(delivery.callbackId()), logEntry(transition.attempt()));
    return false;
  }

  /**
   * Gives a claimed delivery back without an attempt (its destination is busy or its circuit is open): due again at
   * {@code until}, its attempt counts untouched.
   */
  public void defer(Delivery delivery, Instant until) {
    deliveries.updateOne(leased(delivery),
        Updates.combine(Updates.set("nextAttemptAt", Date.from(until)), Updates.unset("leaseUntil"),
            Updates.unset("leaseToken")));
  }

  private static Document leased(Delivery delivery) {
    return byId(delivery.callbackId()).append("status", DeliveryStatus.PENDING.name())
        .append("leaseToken", delivery.leaseToken());
  }

  /** The callbacks of one organisation for one requestId, oldest first, with their attempt logs. */
  public List<DeliveryView> forRequest(String organisationId, String requestId) {
    List<DeliveryView> views = new ArrayList<>();
    deliveries.find(Filters.and(Filters.eq("organisationId", organisationId), Filters.eq("requestId", requestId)))
        .sort(Sorts.ascending("createdAt"))
        .forEach(doc -> views.add(toView(doc)));
    return views;
  }

  /**
   * Schedules a fresh round of attempts starting now, whatever the callback's state (a merchant's redelivery, an
   * operator's replay). The schedule starts again from its first wait; the attempt log keeps what came before.
   *
   * @param organisationId the owner, or null for an operator (who may act on any organisation's callback)
   * @param onlyIfDead true for an operator's replay of a dead letter
   * @return the rescheduled callback, empty when no callback matches
   */
  public Optional<DeliveryView> reschedule(String organisationId, String callbackId, boolean onlyIfDead,
      Instant now) {
    Document filter = byId(callbackId);
    if (organisationId != null) {
      filter.append("organisationId", organisationId);
    }
    if (onlyIfDead) {
      filter.append("status", DeliveryStatus.DEAD.name());
    }
    Date at = Date.from(now);
    Document updated = deliveries.findOneAndUpdate(filter,
        Updates.combine(
            Updates.set("status", DeliveryStatus.PENDING.name()),
            Updates.set("nextAttemptAt", at),
            Updates.set("roundAttempts", 0),
            Updates.set("updatedAt", at),
            Updates.inc("redeliveries", 1),
            Updates.unset("deliveredAt"),
            Updates.unset("deadAt"),
            Updates.unset("deadReason")),
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
    return Optional.ofNullable(updated).map(DeliveryStore::toView);
  }

  /** Whether a callback with this id exists at all (any organisation): tells 404 from 409 for operators. */
  public boolean exists(String callbackId) {
    return deliveries.countDocuments(Filters.eq("_id", callbackId)) > 0;
  }

  /**
   * Dead letters for operators, most recent first: across organisations, or of one when {@code organisationId} is
   * given.
   */
  public List<DeliveryView> dead(String organisationId, int limit) {
    Bson filter = Filters.eq("status", DeliveryStatus.DEAD.name());
    if (organisationId != null) {
      filter = Filters.and(filter, Filters.eq("organisationId", organisationId));
    }
    List<DeliveryView> views = new ArrayList<>();
    deliveries.find(filter).sort(Sorts.descending("deadAt")).limit(limit).forEach(doc -> views.add(toView(doc)));
    return views;
  }

  private Bson logEntry(Attempt attempt) {
    // only the latest entries are kept: redeliveries could otherwise grow one document without bound
    return Updates.pushEach("attemptLog", List.of(toDocument(attempt)), new PushOptions().slice(-attemptLogLimit));
  }

  private static Document toDocument(Attempt attempt) {
    return new Document("attempt", attempt.number())
        .append("at", Date.from(attempt.at()))
        .append("url", attempt.url())
        .append("statusCode", attempt.statusCode())
        .append("latencyMs", attempt.latencyMs())
        .append("error", attempt.error())
        .append("response", attempt.response());
  }

  private static Delivery toDelivery(Document doc) {
    return new Delivery(doc.getString("_id"), doc.getString("organisationId"), doc.getString("requestId"),
        doc.getString("url"), doc.getString("body"), doc.getString("kind"),
        DeliveryStatus.valueOf(doc.getString("status")), doc.getInteger("attempts", 0),
        doc.getInteger("roundAttempts", doc.getInteger("attempts", 0)), doc.getString("leaseToken"));
  }

  private static DeliveryView toView(Document doc) {
    List<Attempt> log = new ArrayList<>();
    for (Document entry : doc.getList("attemptLog", Document.class, List.of())) {
      log.add(new Attempt(entry.getInteger("attempt", 0), instant(entry.getDate("at")), entry.getString("url"),
          entry.getInteger("statusCode"), number(entry.get("latencyMs")), entry.getString("error"),
          entry.getString("response")));
    }
    return new DeliveryView(doc.getString("_id"), doc.getString("organisationId"), doc.getString("requestId"),
        doc.getString("kind"), doc.getString("url"), DeliveryStatus.valueOf(doc.getString("status")),
        doc.getInteger("attempts", 0), instant(doc.getDate("createdAt")),
        DeliveryStatus.PENDING.name().equals(doc.getString("status")) ? instant(doc.getDate("nextAttemptAt")) : null,
        instant(doc.getDate("deliveredAt")), instant(doc.getDate("deadAt")), doc.getString("deadReason"), log);
  }

  private static Instant instant(Date date) {
    return date == null ? null : date.toInstant();
  }

  private static long number(Object value) {
    return value instanceof Number n ? n.longValue() : 0;
  }

  /** A reservation of a delivery for one attempt. */
  public record Lease(String token, Instant until) {
  }
}
