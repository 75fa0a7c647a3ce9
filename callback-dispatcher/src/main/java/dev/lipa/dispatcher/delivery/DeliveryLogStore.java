package dev.lipa.dispatcher.delivery;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.lipa.common.ids.OrganisationId;
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
 * The deliveries as merchants and operators see them: a merchant's delivery log (always filtered by organisation),
 * the operators' dead letters (across organisations, or of one), and the fresh round of attempts a redelivery or a
 * replay schedules.
 */
@Component
class DeliveryLogStore {

  private final MongoCollection<Document> deliveries;

  DeliveryLogStore(MongoClient client, @Value("${spring.mongodb.database}") String database) {
    this.deliveries = client.getDatabase(database).getCollection(DeliveryStore.COLLECTION);
  }

  /** The callbacks of one organisation for one requestId, oldest first, with their attempt logs. */
  List<DeliveryView> forRequest(OrganisationId organisationId, String requestId) {
    List<DeliveryView> views = new ArrayList<>();
    deliveries.find(Filters.and(Filters.eq("organisationId", organisationId.value()),
            Filters.eq("requestId", requestId)))
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
  Optional<DeliveryView> reschedule(OrganisationId organisationId, String callbackId, boolean onlyIfDead,
      Instant now) {
    Document filter = DeliveryStore.byId(callbackId);
    if (organisationId != null) {
      filter.append("organisationId", organisationId.value());
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
    return Optional.ofNullable(updated).map(DeliveryLogStore::toView);
  }

  /** Whether a callback with this id exists at all (any organisation): tells 404 from 409 for operators. */
  boolean exists(String callbackId) {
    return deliveries.countDocuments(Filters.eq("_id", callbackId)) > 0;
  }

  /**
   * Dead letters for operators, most recent first: across organisations, or of one when {@code organisationId} is
   * given.
   */
  List<DeliveryView> dead(OrganisationId organisationId, int limit) {
    Bson filter = Filters.eq("status", DeliveryStatus.DEAD.name());
    if (organisationId != null) {
      filter = Filters.and(filter, Filters.eq("organisationId", organisationId.value()));
    }
    List<DeliveryView> views = new ArrayList<>();
    deliveries.find(filter).sort(Sorts.descending("deadAt")).limit(limit).forEach(doc -> views.add(toView(doc)));
    return views;
  }

  private static DeliveryView toView(Document doc) {
    List<Attempt> log = new ArrayList<>();
    for (Document entry : doc.getList("attemptLog", Document.class, List.of())) {
      log.add(new Attempt(entry.getInteger("attempt", 0), instant(entry.getDate("at")), entry.getString("url"),
          entry.getInteger("statusCode"), number(entry.get("latencyMs")), entry.getString("error"),
          entry.getString("response")));
    }
    return new DeliveryView(doc.getString("_id"), OrganisationId.of(doc.getString("organisationId")),
        doc.getString("requestId"), doc.getString("kind"), doc.getString("url"),
        DeliveryStatus.valueOf(doc.getString("status")),
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
}
