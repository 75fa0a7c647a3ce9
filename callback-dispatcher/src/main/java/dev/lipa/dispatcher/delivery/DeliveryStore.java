package dev.lipa.dispatcher.delivery;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import java.time.Instant;
import java.util.ArrayList;
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
 * <p>Merchant-facing reads always filter by organisation. The claim of due deliveries is the one query across
 * organisations: it is the dispatcher's own work queue.
 */
@Component
public class DeliveryStore {

  static final String COLLECTION = "deliveries";

  private final MongoCollection<Document> deliveries;

  DeliveryStore(MongoClient client, @Value("${spring.mongodb.database}") String database) {
    this.deliveries = client.getDatabase(database).getCollection(COLLECTION);
    // The embedded store ignores non-unique indexes; a real MongoDB needs them for the poller and the delivery log.
    deliveries.createIndex(Indexes.ascending("status", "nextAttemptAt"), new IndexOptions().name("due"));
    deliveries.createIndex(Indexes.ascending("organisationId", "requestId"), new IndexOptions().name("by_request"));
  }

  /**
   * Stores a new PENDING delivery unless one with this callbackId exists (a redelivered Kafka record changes
   * nothing). When {@code lease} is given the new delivery is created already leased to it, so the caller can make
   * the first attempt at once without a claim; otherwise it is due now for the poller.
   *
   * @return true when this call created the delivery
   * @throws CallbackIdConflict when the callbackId is already used by another organisation
   */
  public boolean insertIfAbsent(CallbackRequest request, Instant now, Optional<Lease> lease) {
    Date at = Date.from(now);
    List<Bson> onInsert = new ArrayList<>(List.of(
        Updates.setOnInsert("callbackId", request.callbackId()),
        Updates.setOnInsert("requestId", request.requestId()),
        Updates.setOnInsert("url", request.url()),
        Updates.setOnInsert("body", request.body()),
        Updates.setOnInsert("kind", request.kind()),
        Updates.setOnInsert("eventId", request.eventId()),
        Updates.setOnInsert("status", DeliveryStatus.PENDING.name()),
        Updates.setOnInsert("attempts", 0),
        Updates.setOnInsert("nextAttemptAt", at),
        Updates.setOnInsert("createdAt", at),
        Updates.setOnInsert("updatedAt", at),
        Updates.setOnInsert("attemptLog", List.of())));
    lease.ifPresent(l -> {
      onInsert.add(Updates.setOnInsert("leaseUntil", Date.from(l.until())));
      onInsert.add(Updates.setOnInsert("leaseToken", l.token()));
    });
    // organisationId in the filter: a callbackId already taken by another organisation fails as a duplicate key
    // instead of silently attaching this request to a stranger's delivery
    Bson filter = Filters.and(Filters.eq("_id", request.callbackId()),
        Filters.eq("organisationId", request.organisationId()));
    try {
      return deliveries.updateOne(filter, Updates.combine(onInsert), new UpdateOptions().upsert(true))
          .getUpsertedId() != null;
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
        if (deliveries.countDocuments(filter) > 0) {
          return false; // a concurrent upsert of the same record won the race (real replica sets do this)
        }
        throw new CallbackIdConflict(request.callbackId());
      }
      throw e;
    }
  }

  /**
   * Leases the delivery that has been due longest: PENDING, its next attempt due, and not leased (or leased by an
   * attempt that never finished, e.g. a killed process). Two pollers never get the same delivery: the claim is one
   * atomic findOneAndUpdate.
   */
  public Optional<Delivery> claimDue(Instant now, Lease lease) {
    Date at = Date.from(now);
    Document claimed = deliveries.findOneAndUpdate(
        Filters.and(
            Filters.eq("status", DeliveryStatus.PENDING.name()),
            Filters.lte("nextAttemptAt", at),
            Filters.not(Filters.gt("leaseUntil", at))),
        Updates.combine(Updates.set("leaseUntil", Date.from(lease.until())), Updates.set("leaseToken", lease.token())),
        new FindOneAndUpdateOptions()
            .sort(Sorts.ascending("nextAttemptAt"))
            .projection(Projections.exclude("attemptLog"))
            .returnDocument(ReturnDocument.AFTER));
    return Optional.ofNullable(claimed).map(DeliveryStore::toDelivery);
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
        Updates.push("attemptLog", toDocument(transition.attempt())),
        Updates.unset("leaseUntil"),
        Updates.unset("leaseToken")));
    switch (transition.status()) {
      case PENDING -> changes.add(Updates.set("nextAttemptAt", Date.from(transition.nextAttemptAt())));
      case DELIVERED -> changes.add(Updates.set("deliveredAt", at));
      case DEAD -> changes.add(Updates.set("deadAt", at));
    }
    long matched = deliveries.updateOne(
        Filters.and(
            Filters.eq("_id", delivery.callbackId()),
            Filters.eq("status", DeliveryStatus.PENDING.name()),
            Filters.eq("leaseToken", delivery.leaseToken())),
        Updates.combine(changes)).getMatchedCount();
    if (matched == 1) {
      return true;
    }
    deliveries.updateOne(Filters.eq("_id", delivery.callbackId()),
        Updates.push("attemptLog", toDocument(transition.attempt())));
    return false;
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
        DeliveryStatus.valueOf(doc.getString("status")), doc.getInteger("attempts", 0), doc.getString("leaseToken"));
  }

  /** A reservation of a delivery for one attempt. */
  public record Lease(String token, Instant until) {
  }

  /** The same callbackId arrived for two organisations: a producer bug, never delivered to either by mistake. */
  public static final class CallbackIdConflict extends RuntimeException {

    CallbackIdConflict(String callbackId) {
      super("callbackId " + callbackId + " already belongs to another organisation");
    }
  }
}
