package dev.lipa.dispatcher.delivery;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Projections;
import dev.lipa.common.tracing.TraceContexts;
import com.mongodb.client.model.PushOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.dispatcher.delivery.DeliveryStore.Lease;
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
 * The attempts' work queue in the {@code deliveries} collection: the due deliveries, their claim under a lease, and an
 * attempt's result (its log entry and the state it leads to, one atomic write) or its deferral, each written only
 * while the attempt still holds its lease. The claim goes across organisations: it is the dispatcher's own queue.
 */
@Component
class DeliveryQueueStore {

  private final MongoCollection<Document> deliveries;
  private final int attemptLogLimit;

  DeliveryQueueStore(MongoClient client, @Value("${spring.mongodb.database}") String database,
      DispatcherProperties properties) {
    this.deliveries = client.getDatabase(database).getCollection(DeliveryStore.COLLECTION);
    this.attemptLogLimit = properties.attemptLogLimit();
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
    Document seen = deliveries.find(DeliveryStore.byId(callbackId))
        .projection(Projections.exclude("attemptLog", "body")).first();
    if (seen == null || !isDue(seen, now)) {
      return Optional.empty();
    }
    Document claimed = deliveries.findOneAndUpdate(
        DeliveryStore.byId(callbackId).append("status", DeliveryStatus.PENDING.name())
            .append("leaseToken", seen.getString("leaseToken")),
        Updates.combine(Updates.set("leaseUntil", Date.from(lease.until())), Updates.set("leaseToken", lease.token())),
        new FindOneAndUpdateOptions()
            .projection(Projections.exclude("attemptLog"))
            .returnDocument(ReturnDocument.AFTER));
    return Optional.ofNullable(claimed).map(DeliveryQueueStore::toDelivery);
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
    deliveries.updateOne(DeliveryStore.byId(delivery.callbackId()), logEntry(transition.attempt()));
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
    return DeliveryStore.byId(delivery.callbackId()).append("status", DeliveryStatus.PENDING.name())
        .append("leaseToken", delivery.leaseToken());
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
    return new Delivery(doc.getString("_id"), OrganisationId.of(doc.getString("organisationId")),
        doc.getString("requestId"), doc.getString("url"), doc.getString("body"), doc.getString("kind"),
        DeliveryStatus.valueOf(doc.getString("status")), doc.getInteger("attempts", 0),
        doc.getInteger("roundAttempts", doc.getInteger("attempts", 0)), doc.getString("leaseToken"),
        doc.getString(TraceContexts.TRACEPARENT));
  }
}
