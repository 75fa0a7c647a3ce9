package dev.lipa.dispatcher.delivery;

import dev.lipa.common.tracing.TraceContexts;
import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
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
 * <p>This class names the collection and its indexes and stores what the intake accepts; the attempts' work queue is
 * {@link DeliveryQueueStore}, the merchants' delivery log and the operators' dead letters {@link DeliveryLogStore}.
 */
@Component
class DeliveryStore {

  static final String COLLECTION = "deliveries";

  private final MongoCollection<Document> deliveries;

  DeliveryStore(MongoClient client, @Value("${spring.mongodb.database}") String database) {
    this.deliveries = client.getDatabase(database).getCollection(COLLECTION);
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
   * a {@link DeliveryQueueStore#claim} writes), so the caller can make the first attempt at once without a claim; if
   * the process dies first, the lease expires and the poller claims the delivery as any other. Otherwise it is due at
   * its {@code due} for the poller.
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
    return byId(request.callbackId()).append("organisationId", request.organisationId().value());
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
    if (request.traceparent() != null) {
      onInsert.add(Updates.setOnInsert(TraceContexts.TRACEPARENT, request.traceparent()));
    }
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
   * A filter on {@code _id} plus other fields, written as one plain document: the embedded store finds a document by
   * its {@code _id} index only when {@code _id} is a top-level field of the query, and scans the whole collection for
   * an {@code $and} (which {@link Filters#and} produces), making every write O(collection size).
   */
  static Document byId(String callbackId) {
    return new Document("_id", callbackId);
  }

  /** A reservation of a delivery for one attempt. */
  public record Lease(String token, Instant until) {
  }
}
