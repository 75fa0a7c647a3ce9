package dev.lipa.auth.apikeys;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.bson.types.Binary;
import org.springframework.stereotype.Component;

import static com.mongodb.client.model.Filters.eq;

/**
 * API keys in collection {@code api_keys}, {@code _id} = the public apiKey (unique by construction).
 *
 * <p>The lookup at token issuance is by apiKey alone: the key is what names the organisation there. Every operator
 * action names the organisation too and filters by it.
 *
 * <p>{@code environment} is the key's environment ({@code sandbox} or {@code live}); keys stored before keys had one
 * have no such field and are sandbox keys.
 */
@Component
class ApiKeyStore {

  /** The most keys one listing shows: an organisation holds a handful (rotation), never hundreds. */
  static final int LIST_LIMIT = 500;

  private final MongoCollection<Document> keys;

  ApiKeyStore(MongoDatabase database) {
    this.keys = database.getCollection("api_keys");
    keys.createIndex(Indexes.ascending("organisationId", "createdAt"),
        new IndexOptions().name("api_keys_by_organisation"));
  }

  void insert(ApiKey key) {
    keys.insertOne(new Document("_id", key.apiKey())
        .append("organisationId", key.organisationId().value())
        .append("environment", key.environment().claim())
        .append("secretHash", new Binary(key.secretHash()))
        .append("status", key.status().name())
        .append("createdAt", Date.from(key.createdAt())));
  }

  /** The key presented at token issuance, whatever its organisation. */
  Optional<ApiKey> findForAuthentication(String apiKey) {
    return Optional.ofNullable(keys.find(eq("_id", apiKey)).first()).map(ApiKeyStore::read);
  }

  Optional<ApiKey> find(OrganisationId organisationId, String apiKey) {
    return Optional.ofNullable(keys.find(Filters.and(eq("_id", apiKey), eq("organisationId", organisationId.value())))
            .first())
        .map(ApiKeyStore::read);
  }

  /** The organisation's keys, oldest first (at most {@link #LIST_LIMIT}). */
  List<ApiKey> list(OrganisationId organisationId) {
    return keys.find(eq("organisationId", organisationId.value()))
        .sort(Sorts.ascending("createdAt", "_id"))
        .limit(LIST_LIMIT)
        .map(ApiKeyStore::read)
        .into(new ArrayList<>());
  }

  /** Compare-and-set ACTIVE to REVOKED; false when the key was not active (already revoked, or not this org's). */
  boolean markRevoked(ApiKey revoked) {
    return keys.updateOne(
        Filters.and(eq("_id", revoked.apiKey()), eq("organisationId", revoked.organisationId().value()),
            eq("status", ApiKeyStatus.ACTIVE.name())),
        Updates.combine(Updates.set("status", ApiKeyStatus.REVOKED.name()),
            Updates.set("revokedAt", Date.from(revoked.revokedAt())))).getModifiedCount() == 1;
  }

  private static ApiKey read(Document d) {
    Date revokedAt = d.getDate("revokedAt");
    // a key stored before keys had an environment has none: it is a sandbox key
    return new ApiKey(d.getString("_id"), OrganisationId.of(d.getString("organisationId")),
        Environment.fromClaim(d.getString("environment")), d.get("secretHash", Binary.class).getData(),
        ApiKeyStatus.valueOf(d.getString("status")), d.getDate("createdAt").toInstant(),
        revokedAt == null ? null : revokedAt.toInstant());
  }
}
