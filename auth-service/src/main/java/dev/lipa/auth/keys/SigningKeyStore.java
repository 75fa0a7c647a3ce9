package dev.lipa.auth.keys;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.nimbusds.jose.jwk.ECKey;
import dev.lipa.auth.MongoErrors;
import java.text.ParseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.bson.Document;
import org.springframework.stereotype.Component;

import static com.mongodb.client.model.Filters.eq;

/**
 * Signing keys in collection {@code signing_keys} ({@code _id} = kid). The active key carries {@code slot: "active"}
 * under a sparse unique index, so however many replicas start at once, exactly one key becomes the active one.
 *
 * <p>The private key is stored as JWK JSON in the clear. Production should wrap it (envelope encryption with a KMS key
 * or keep it in an HSM) so that a copy of the database is not a copy of the power to mint tokens.
 */
@Component
class SigningKeyStore {

  private static final String ACTIVE_SLOT = "active";

  private final MongoCollection<Document> keys;

  SigningKeyStore(MongoDatabase database) {
    this.keys = database.getCollection("signing_keys");
    keys.createIndex(Indexes.ascending("slot"),
        new IndexOptions().name("signing_key_active_slot").unique(true).sparse(true));
  }

  Optional<SigningKey> active() {
    return Optional.ofNullable(keys.find(eq("slot", ACTIVE_SLOT)).first()).map(SigningKeyStore::read);
  }

  /** The active key, or a new one from {@code generator} when there is none yet; a lost race yields the winner's. */
  SigningKey activeOrCreate(Supplier<ECKey> generator) {
    Optional<SigningKey> existing = active();
    if (existing.isPresent()) {
      return existing.get();
    }
    ECKey key = generator.get();
    Instant now = Instant.ofEpochMilli(System.currentTimeMillis());
    try {
      keys.insertOne(new Document("_id", key.getKeyID())
          .append("slot", ACTIVE_SLOT)
          .append("status", SigningKeyStatus.ACTIVE.name())
          .append("algorithm", "ES256")
          .append("privateJwk", key.toJSONString())
          .append("createdAt", Date.from(now)));
      return new SigningKey(key.getKeyID(), key, SigningKeyStatus.ACTIVE, now);
    } catch (RuntimeException e) {
      if (!MongoErrors.isDuplicateKey(e)) {
        throw e;
      }
      return active().orElseThrow(() -> new IllegalStateException("lost the race for the active key to nobody", e));
    }
  }

  /** Every key verifiers may still meet: all but the retired ones. */
  List<SigningKey> published() {
    List<SigningKey> published = new ArrayList<>();
    keys.find(Filters.ne("status", SigningKeyStatus.RETIRED.name())).map(SigningKeyStore::read).into(published);
    return published;
  }

  private static SigningKey read(Document d) {
    try {
      return new SigningKey(d.getString("_id"), ECKey.parse(d.getString("privateJwk")),
          SigningKeyStatus.valueOf(d.getString("status")), d.getDate("createdAt").toInstant());
    } catch (ParseException e) {
      throw new IllegalStateException("signing key " + d.getString("_id") + " is not a valid EC JWK", e);
    }
  }
}
