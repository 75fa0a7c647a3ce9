package dev.lipa.dispatcher.signing;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The {@code signing_secrets} collection: one document per organisation ({@code _id}), holding its current secret
 * and, during a rotation window, the previous one, both as sealed by {@link SecretCipher}.
 */
@Component
class SigningSecretStore {

  static final String COLLECTION = "signing_secrets";

  private final MongoCollection<Document> secrets;

  SigningSecretStore(MongoClient client, @Value("${spring.mongodb.database}") String database) {
    this.secrets = client.getDatabase(database).getCollection(COLLECTION);
  }

  /** What is stored for an organisation. */
  record Stored(String organisationId, String current, Instant createdAt, boolean revealed, String previous,
      Instant previousExpiresAt) {
  }

  Optional<Stored> find(String organisationId) {
    return Optional.ofNullable(secrets.find(Filters.eq("_id", organisationId)).first()).map(SigningSecretStore::read);
  }

  /** Stores a first secret unless the organisation has one; returns what is stored afterwards either way. */
  Stored createIfAbsent(String organisationId, String sealed, Instant now, boolean revealed) {
    Document doc = secrets.findOneAndUpdate(Filters.eq("_id", organisationId),
        Updates.combine(
            Updates.setOnInsert("current", sealed),
            Updates.setOnInsert("createdAt", Date.from(now)),
            Updates.setOnInsert("revealed", revealed)),
        new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER));
    return read(doc);
  }

  /**
   * Replaces the current secret if it is still {@code expectedCurrent} (compare-and-set: two rotations at once cannot
   * both win and lose a secret between them).
   *
   * @param previous the secret that keeps signing until {@code previousExpiresAt}, null for none
   * @return false when another rotation came first
   */
  boolean replace(String organisationId, String expectedCurrent, String sealed, Instant now, String previous,
      Instant previousExpiresAt) {
    Bson previousUpdate = previous == null
        ? Updates.combine(Updates.unset("previous"), Updates.unset("previousExpiresAt"))
        : Updates.combine(Updates.set("previous", previous),
            Updates.set("previousExpiresAt", Date.from(previousExpiresAt)));
    // one plain document, not Filters.and: the embedded store uses the _id index only for a top-level _id
    return secrets.updateOne(new Document("_id", organisationId).append("current", expectedCurrent),
        Updates.combine(Updates.set("current", sealed), Updates.set("createdAt", Date.from(now)),
            Updates.set("revealed", true), previousUpdate),
        new UpdateOptions()).getMatchedCount() == 1;
  }

  private static Stored read(Document doc) {
    Date previousExpiresAt = doc.getDate("previousExpiresAt");
    return new Stored(doc.getString("_id"), doc.getString("current"), doc.getDate("createdAt").toInstant(),
        doc.getBoolean("revealed", false), doc.getString("previous"),
        previousExpiresAt == null ? null : previousExpiresAt.toInstant());
  }
}
