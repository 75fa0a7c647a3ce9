package dev.lipa.auth.revocations;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import dev.lipa.auth.MongoErrors;
import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.stereotype.Component;

/**
 * Revocations in collection {@value #COLLECTION}, one document per revoked API key ({@code _id} {@code key:<apiKey>})
 * and per organisation whose tokens were revoked ({@code _id} {@code organisation:<id>}, its cut-off the latest
 * revocation's). {@code feedUntil} is when the revocation leaves the feed, no access token it refuses being valid by
 * then, and the document goes with it (a TTL index on MongoDB; a sweep at each write on the embedded store, which ignores
 * TTL indexes). Refresh tokens need no entry: auth-service refuses them through their ended families.
 */
@Component
class RevocationStore {

  static final String COLLECTION = "token_revocations";
  private static final String KEY_PREFIX = "key:";
  private static final String ORGANISATION_PREFIX = "organisation:";
  private static final String FEED_UNTIL = "feedUntil";

  private final MongoCollection<Document> revocations;

  RevocationStore(MongoDatabase database) {
    this.revocations = database.getCollection(COLLECTION);
    revocations.createIndex(Indexes.ascending(FEED_UNTIL),
        new IndexOptions().name("token_revocations_feed").expireAfter(0L, TimeUnit.SECONDS));
  }

  /** Records the key's revocation; its time stays the first one's, its stay the longest asked for. */
  void revokeKey(OrganisationId organisationId, String apiKey, Instant revokedAt, Instant feedUntil) {
    upsert(KEY_PREFIX + apiKey, Updates.combine(
        Updates.setOnInsert("kind", Revocation.Kind.API_KEY.name()),
        Updates.setOnInsert("apiKey", apiKey),
        Updates.setOnInsert("organisationId", organisationId.value()),
        Updates.setOnInsert("at", Date.from(revokedAt)),
        Updates.max(FEED_UNTIL, Date.from(feedUntil))), revokedAt);
  }

  /** Records that the organisation's tokens issued up to {@code revokedBefore} are revoked (a later cut-off wins). */
  void revokeOrganisation(OrganisationId organisationId, Instant revokedBefore, Instant feedUntil) {
    upsert(ORGANISATION_PREFIX + organisationId.value(), Updates.combine(
        Updates.setOnInsert("kind", Revocation.Kind.ORGANISATION.name()),
        Updates.setOnInsert("organisationId", organisationId.value()),
        Updates.max("at", Date.from(revokedBefore)),
        Updates.max(FEED_UNTIL, Date.from(feedUntil))), revokedBefore);
  }

  /** The revocations still in the feed at {@code now}. */
  List<Revocation> inFeed(Instant now) {
    List<Revocation> found = new ArrayList<>();
    revocations.find(Filters.gt(FEED_UNTIL, Date.from(now))).forEach(d -> found.add(new Revocation(
        Revocation.Kind.valueOf(d.getString("kind")), d.getString("organisationId"), d.getString("apiKey"),
        d.getDate("at").toInstant())));
    return found;
  }

  private void upsert(String id, Bson update, Instant now) {
    UpdateOptions upsert = new UpdateOptions().upsert(true);
    try {
      revocations.updateOne(Filters.eq("_id", id), update, upsert);
    } catch (RuntimeException e) {
      if (!MongoErrors.isDuplicateKey(e)) {
        throw e;
      }
      revocations.updateOne(Filters.eq("_id", id), update, upsert); // a concurrent upsert inserted it: now an update
    }
    revocations.deleteMany(Filters.lte(FEED_UNTIL, Date.from(now)));
  }
}
