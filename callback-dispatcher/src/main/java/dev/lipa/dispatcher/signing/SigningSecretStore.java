package dev.lipa.dispatcher.signing;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import dev.lipa.common.crypto.SealedRecords;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.ids.OrganisationId;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The {@code signing_secrets} collection: one document per organisation ({@code _id}), holding its current secret
 * and, during a rotation window, the previous one, both sealed under the platform's master key
 * ({@link SecretEnvelope}, bound to the organisation). Values earlier versions stored ({@link LegacySecretCipher})
 * are still read, and the re-wrap job seals them.
 */
@Component
class SigningSecretStore implements SealedRecords {

  static final String COLLECTION = "signing_secrets";
  private static final int DUPLICATE_KEY = 11000;

  private final MongoCollection<Document> secrets;
  private final SecretEnvelope envelope;
  private final LegacySecretCipher legacy;

  SigningSecretStore(MongoClient client, @Value("${spring.mongodb.database}") String database,
      SecretEnvelope envelope, SigningProperties properties) {
    this.secrets = client.getDatabase(database).getCollection(COLLECTION);
    this.envelope = envelope;
    this.legacy = new LegacySecretCipher(properties.encryptionKeyBytes());
  }

  /** The stored form of an organisation's secret. */
  String seal(OrganisationId organisationId, String secret) {
    return envelope.seal(secret, context(organisationId));
  }

  /** The secret a stored value holds, whichever version stored it. */
  String open(OrganisationId organisationId, String stored) {
    if (SecretEnvelope.isStoredForm(stored)) {
      return envelope.open(stored, context(organisationId));
    }
    return legacy.open(organisationId, stored)
        .orElseThrow(() -> new IllegalStateException("unknown signing secret format"));
  }

  @Override
  public MongoCollection<Document> collection() {
    return secrets;
  }

  @Override
  public List<String> fields() {
    return List.of("current", "previous");
  }

  @Override
  public String context(Document document) {
    return context(OrganisationId.of(document.getString("_id")));
  }

  @Override
  public Optional<String> openLegacy(Document document, String field, String value) {
    return legacy.open(OrganisationId.of(document.getString("_id")), value);
  }

  private static String context(OrganisationId organisationId) {
    return COLLECTION + ":" + organisationId.value();
  }

  /** What is stored for an organisation. */
  record Stored(OrganisationId organisationId, String current, Instant createdAt, boolean revealed, String previous,
      Instant previousExpiresAt) {
  }

  Optional<Stored> find(OrganisationId organisationId) {
    return Optional.ofNullable(secrets.find(Filters.eq("_id", organisationId.value())).first())
        .map(SigningSecretStore::read);
  }

  /**
   * Stores a first secret unless the organisation has one; returns what is stored afterwards either way. Two
   * replicas creating the first secret of one organisation at once race on a real MongoDB: the loser's upsert fails
   * with a duplicate key, and it returns the winner's secret instead of failing.
   */
  Stored createIfAbsent(OrganisationId organisationId, String sealed, Instant now, boolean revealed) {
    Document doc;
    try {
      doc = secrets.findOneAndUpdate(Filters.eq("_id", organisationId.value()),
          Updates.combine(
              Updates.setOnInsert("current", sealed),
              Updates.setOnInsert("createdAt", Date.from(now)),
              Updates.setOnInsert("revealed", revealed)),
          new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER));
    } catch (MongoServerException e) {
      if (e.getCode() != DUPLICATE_KEY) {
        throw e;
      }
      doc = secrets.find(Filters.eq("_id", organisationId.value())).first();
      if (doc == null) { // the winner's secret was gone again at once: only a deletion could do that
        throw e;
      }
    }
    return read(doc);
  }

  /**
   * Replaces the current secret if it is still {@code expectedCurrent} (compare-and-set: two rotations at once cannot
   * both win and lose a secret between them).
   *
   * @param previous the secret that keeps signing until {@code previousExpiresAt}, null for none
   * @return false when another rotation came first
   */
  boolean replace(OrganisationId organisationId, String expectedCurrent, String sealed, Instant now, String previous,
      Instant previousExpiresAt) {
    Bson previousUpdate = previous == null
        ? Updates.combine(Updates.unset("previous"), Updates.unset("previousExpiresAt"))
        : Updates.combine(Updates.set("previous", previous),
            Updates.set("previousExpiresAt", Date.from(previousExpiresAt)));
    // one plain document, not Filters.and: the embedded store uses the _id index only for a top-level _id
    return secrets.updateOne(new Document("_id", organisationId.value()).append("current", expectedCurrent),
        Updates.combine(Updates.set("current", sealed), Updates.set("createdAt", Date.from(now)),
            Updates.set("revealed", true), previousUpdate),
        new UpdateOptions()).getMatchedCount() == 1;
  }

  private static Stored read(Document doc) {
    Date previousExpiresAt = doc.getDate("previousExpiresAt");
    return new Stored(OrganisationId.of(doc.getString("_id")), doc.getString("current"),
        doc.getDate("createdAt").toInstant(), doc.getBoolean("revealed", false), doc.getString("previous"),
        previousExpiresAt == null ? null : previousExpiresAt.toInstant());
  }
}
