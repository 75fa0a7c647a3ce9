package dev.lipa.auth.keys;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import com.nimbusds.jose.jwk.ECKey;
import dev.lipa.auth.MongoErrors;
import dev.lipa.common.crypto.SealedRecords;
import dev.lipa.common.crypto.SecretEnvelope;
import java.text.ParseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Signing keys in collection {@code signing_keys} ({@code _id} = kid). The private half is sealed at rest under the
 * platform's master key ({@link SecretEnvelope}, bound to its kid), so a copy of the database is not a copy of the
 * power to mint tokens; it is erased once the key no longer signs.
 *
 * <p>Each key names the key it {@code follows} under a unique index: however many replicas start for the first time,
 * or rotate, at once, one first key and one successor per key are stored.
 */
@Component
class SigningKeyStore implements SealedRecords {

  static final String COLLECTION = "signing_keys";
  /** What the first key follows. */
  static final String FIRST = "-";
  private static final Logger log = LoggerFactory.getLogger(SigningKeyStore.class);

  private final MongoCollection<Document> keys;
  private final SecretEnvelope envelope;

  SigningKeyStore(MongoDatabase database, SecretEnvelope envelope) {
    this.keys = database.getCollection(COLLECTION);
    this.envelope = envelope;
    keys.createIndex(Indexes.ascending("follows"), new IndexOptions().name("signing_key_follows").unique(true));
    sealPlainKeys();
  }

  /** Every key, retired ones too (a handful of documents). */
  List<SigningKey> all() {
    List<SigningKey> all = new ArrayList<>();
    keys.find().map(SigningKeyStore::read).into(all);
    return all;
  }

  /** Stores the very first key, signing from {@code now}; false when another replica stored one first. */
  boolean insertFirst(ECKey key, Instant now) {
    return insert(key, FIRST, now, now);
  }

  /** Stores the key that follows {@code follows} from {@code activatesAt}; false when another rotation came first. */
  boolean insertNext(ECKey key, String follows, Instant activatesAt, Instant now) {
    return insert(key, follows, activatesAt, now);
  }

  private boolean insert(ECKey key, String follows, Instant activatesAt, Instant now) {
    try {
      keys.insertOne(new Document("_id", key.getKeyID())
          .append("algorithm", "ES256")
          .append("publicJwk", key.toPublicJWK().toJSONString())
          .append("privateKey", envelope.seal(key.toJSONString(), context(key.getKeyID())))
          .append("follows", follows)
          .append("createdAt", Date.from(now))
          .append("activatesAt", Date.from(activatesAt)));
      return true;
    } catch (RuntimeException e) {
      if (MongoErrors.isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  /** The full key pair of a stored key. */
  ECKey privateKey(SigningKey key) {
    if (!key.hasPrivateKey()) {
      throw new IllegalStateException("the private half of signing key " + key.kid() + " was erased");
    }
    try {
      return ECKey.parse(envelope.open(key.sealedPrivateKey(), context(key.kid())));
    } catch (ParseException e) {
      throw new IllegalStateException("signing key " + key.kid() + " is not a valid EC JWK", e);
    }
  }

  /** Erases the private half of a key that no longer signs; false when it was gone already. */
  boolean erasePrivateKey(String kid) {
    return keys.updateOne(new Document("_id", kid).append("privateKey", new Document("$exists", true)),
        Updates.unset("privateKey")).getModifiedCount() == 1;
  }

  /** Marks a key retired (out of the JWKS for good) and erases its private half; false when it was already. */
  boolean retire(String kid, Instant now) {
    return keys.updateOne(new Document("_id", kid).append("retiredAt", null),
        Updates.combine(Updates.set("retiredAt", Date.from(now)), Updates.unset("privateKey"))).getModifiedCount() == 1;
  }

  @Override
  public MongoCollection<Document> collection() {
    return keys;
  }

  @Override
  public List<String> fields() {
    return List.of("privateKey");
  }

  @Override
  public String context(Document document) {
    return context(document.getString("_id"));
  }

  private static String context(String kid) {
    return COLLECTION + ":" + kid;
  }

  /**
   * Converts keys an earlier version stored in the clear ({@code privateJwk}, with {@code status} and an
   * {@code active} slot) to the sealed form, once: a compare-and-set on the clear text, so replicas starting together
   * convert each key once, and the clear text is gone in the same write.
   */
  private void sealPlainKeys() {
    List<Document> plain = new ArrayList<>();
    keys.find(new Document("privateJwk", new Document("$exists", true))).into(plain);
    for (Document d : plain) {
      String kid = d.getString("_id");
      String privateJwk = d.getString("privateJwk");
      ECKey key;
      try {
        key = ECKey.parse(privateJwk);
      } catch (ParseException e) {
        throw new IllegalStateException("signing key " + kid + " is not a valid EC JWK", e);
      }
      boolean retired = "RETIRED".equals(d.getString("status"));
      Date createdAt = d.getDate("createdAt");
      List<Bson> updates = new ArrayList<>(List.of(
          Updates.set("publicJwk", key.toPublicJWK().toJSONString()),
          Updates.set("follows", retired ? "retired:" + kid : FIRST),
          // a key retired before this version goes first in the order, so it can never look like a successor
          Updates.set("activatesAt", retired ? new Date(0) : createdAt),
          Updates.unset("privateJwk"), Updates.unset("slot"), Updates.unset("status")));
      updates.add(retired ? Updates.set("retiredAt", createdAt) : Updates.set("privateKey",
          envelope.seal(key.toJSONString(), context(kid))));
      if (keys.updateOne(new Document("_id", kid).append("privateJwk", privateJwk), Updates.combine(updates))
          .getModifiedCount() == 1) {
        log.info("signing key {} was stored in the clear by an earlier version: sealed under master key {}", kid,
            envelope.primaryKeyId());
      }
    }
  }

  private static SigningKey read(Document d) {
    try {
      Date retiredAt = d.getDate("retiredAt");
      return new SigningKey(d.getString("_id"), ECKey.parse(d.getString("publicJwk")), d.getString("privateKey"),
          d.getString("follows"), d.getDate("createdAt").toInstant(), d.getDate("activatesAt").toInstant(),
          retiredAt == null ? null : retiredAt.toInstant());
    } catch (ParseException e) {
      throw new IllegalStateException("signing key " + d.getString("_id") + " has no valid public JWK", e);
    }
  }
}
