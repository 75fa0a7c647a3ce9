package dev.lipa.auth.tokens;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.ids.OrganisationId;
import org.bson.conversions.Bson;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.springframework.stereotype.Component;

import static com.mongodb.client.model.Filters.eq;

/**
 * Refresh token families in collection {@code token_families}, one document per family ({@code _id} = {@code fam}).
 *
 * <p>A family's refresh tokens form a chain: each refresh spends one token and creates its single successor. So "the
 * token is unspent" is exactly "its jti is the family's {@code currentJti}", and spending it is one compare-and-set
 * on the family document. Keeping the chain in one document costs one write per get-token and one per refresh
 * (instead of a document per token plus a family document) and needs no transaction.
 *
 * <p>A family belongs to the environment of the key that started it ({@code environment}; a family started before
 * families had one has none and is a sandbox family), and only a refresh token of that environment spends it.
 */
@Component
class TokenFamilyStore {

  private final MongoCollection<Document> families;

  TokenFamilyStore(MongoDatabase database) {
    this.families = database.getCollection("token_families");
    // removes dead families on a real MongoDB; the embedded store ignores TTL indexes, where they stay (small, inert)
    families.createIndex(Indexes.ascending("expiresAt"),
        new IndexOptions().name("token_family_expiry").expireAfter(0L, TimeUnit.SECONDS));
  }

  /** A new family whose only unspent refresh token is {@code jti}. */
  void start(String family, OrganisationId organisationId, String apiKey, Environment environment, String jti,
      Instant now, Instant expiresAt) {
    families.insertOne(new Document("_id", family)
        .append("organisationId", organisationId.value())
        .append("apiKey", apiKey)
        .append("environment", environment.claim())
        .append("currentJti", jti)
        .append("revoked", false)
        .append("createdAt", Date.from(now))
        .append("updatedAt", Date.from(now))
        .append("expiresAt", Date.from(expiresAt)));
  }

  /**
   * Spends {@code jti} and makes {@code nextJti} the family's unspent token, atomically. False when {@code jti} is not
   * the unspent token of a live family of {@code environment}: already spent (a reuse), the family is revoked or
   * unknown, or it belongs to the other environment.
   */
  boolean spend(String family, OrganisationId organisationId, Environment environment, String jti, String nextJti,
      Instant now, Instant expiresAt) {
    return families.findOneAndUpdate(
        Filters.and(eq("_id", family), eq("organisationId", organisationId.value()), eq("currentJti", jti),
            eq("revoked", false), ofEnvironment(environment)),
        Updates.combine(Updates.set("currentJti", nextJti), Updates.set("updatedAt", Date.from(now)),
            Updates.set("expiresAt", Date.from(expiresAt)))) != null;
  }

  private static Bson ofEnvironment(Environment environment) {
    Bson named = eq("environment", environment.claim());
    return environment == Environment.SANDBOX ? Filters.or(named, Filters.exists("environment", false)) : named;
  }

  /** Revokes the family: none of its refresh tokens buys anything any more. */
  void revoke(String family, OrganisationId organisationId, String reason, Instant now) {
    families.updateOne(Filters.and(eq("_id", family), eq("organisationId", organisationId.value()), eq("revoked", false)),
        revocation(reason, now));
  }

  /** Revokes every family started with this API key (the key was revoked). */
  long revokeStartedWith(OrganisationId organisationId, String apiKey, Instant now) {
    return families.updateMany(
        Filters.and(eq("organisationId", organisationId.value()), eq("apiKey", apiKey), eq("revoked", false)),
        revocation("api key revoked", now)).getModifiedCount();
  }

  /** Revokes every family of the organisation started by {@code startedBy} (its tokens were all revoked). */
  long revokeOrganisation(OrganisationId organisationId, Instant startedBy) {
    return families.updateMany(
        Filters.and(eq("organisationId", organisationId.value()), eq("revoked", false),
            Filters.lte("createdAt", Date.from(startedBy))),
        revocation("organisation tokens revoked", startedBy)).getModifiedCount();
  }

  private static org.bson.conversions.Bson revocation(String reason, Instant now) {
    return Updates.combine(Updates.set("revoked", true), Updates.set("revokedReason", reason),
        Updates.set("revokedAt", Date.from(now)), Updates.set("updatedAt", Date.from(now)));
  }
}
