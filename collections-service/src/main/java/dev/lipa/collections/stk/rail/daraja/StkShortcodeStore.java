package dev.lipa.collections.stk.rail.daraja;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReplaceOptions;
import dev.lipa.common.crypto.SealedRecords;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.rails.daraja.StkTransactionType;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;
import org.bson.Document;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The {@code daraja_stk_shortcodes} collection: one document per shortcode ({@code _id}), its consumer key and secret
 * and its passkey sealed under the platform's master key ({@link SecretEnvelope}, bound to the shortcode). A sparse
 * unique index on {@code activeSlot} (set only on the active shortcode) keeps at most one active, also when two
 * operators change shortcodes at once.
 */
@Component
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class StkShortcodeStore implements SealedRecords {

  static final String COLLECTION = "daraja_stk_shortcodes";
  static final String ACTIVE_SLOT_INDEX = "daraja_stk_shortcodes_active_slot";
  private static final int DUPLICATE_KEY = 11000;

  /** Another shortcode is active already. */
  static final class ActiveTaken extends RuntimeException {
    ActiveTaken() {
      super("another shortcode is active", null, false, false);
    }
  }

  private final MongoCollection<Document> shortcodes;
  private final SecretEnvelope envelope;

  StkShortcodeStore(MongoDatabase database, SecretEnvelope envelope) {
    this.shortcodes = database.getCollection(COLLECTION);
    this.envelope = envelope;
    shortcodes.createIndex(Indexes.ascending("activeSlot"),
        new IndexOptions().name(ACTIVE_SLOT_INDEX).unique(true).sparse(true));
  }

  String seal(String shortcode, String secret) {
    return envelope.seal(secret, context(shortcode));
  }

  String open(String shortcode, String sealed) {
    return envelope.open(sealed, context(shortcode));
  }

  Optional<StkShortcode> find(String shortcode) {
    return Optional.ofNullable(shortcodes.find(Filters.eq("_id", shortcode)).first()).map(StkShortcodeStore::read);
  }

  Optional<StkShortcode> findActive() {
    return Optional.ofNullable(shortcodes.find(Filters.eq("activeSlot", "active")).first())
        .map(StkShortcodeStore::read);
  }

  List<StkShortcode> list() {
    List<StkShortcode> all = new ArrayList<>();
    shortcodes.find().sort(new Document("_id", 1)).limit(1000).forEach(d -> all.add(read(d)));
    return all;
  }

  /**
   * Writes the shortcode if it is still at {@code expectedVersion} (0: absent); false when another change came first.
   *
   * @throws ActiveTaken when it is to be active and another shortcode is
   */
  boolean save(StkShortcode shortcode, long expectedVersion) {
    Document doc = new Document("_id", shortcode.shortcode())
        .append("type", shortcode.type().name())
        .append("partyB", shortcode.partyB())
        .append("active", shortcode.active())
        .append("consumerKey", shortcode.sealedConsumerKey())
        .append("consumerSecret", shortcode.sealedConsumerSecret())
        .append("passkey", shortcode.sealedPasskey())
        .append("fingerprints", new Document(shortcode.fingerprints()))
        .append("callbackSegment", shortcode.callbackSegment())
        .append("version", shortcode.version())
        .append("updatedAt", Date.from(shortcode.updatedAt()));
    if (shortcode.active()) {
      doc.append("activeSlot", "active");
    }
    try {
      if (expectedVersion == 0) {
        shortcodes.insertOne(doc);
        return true;
      }
      return shortcodes.replaceOne(new Document("_id", shortcode.shortcode()).append("version", expectedVersion), doc,
          new ReplaceOptions()).getMatchedCount() == 1;
    } catch (MongoServerException e) {
      if (e.getCode() != DUPLICATE_KEY) {
        throw e;
      }
      if (expectedVersion == 0 && find(shortcode.shortcode()).isPresent()) {
        return false; // created meanwhile by another call
      }
      throw new ActiveTaken();
    }
  }

  @Override
  public MongoCollection<Document> collection() {
    return shortcodes;
  }

  @Override
  public List<String> fields() {
    return List.of("consumerKey", "consumerSecret", "passkey");
  }

  @Override
  public String context(Document document) {
    return context(document.getString("_id"));
  }

  private static String context(String shortcode) {
    return COLLECTION + ":" + shortcode;
  }

  private static Map<String, String> fingerprints(Document d) {
    Map<String, String> all = new TreeMap<>();
    if (d != null) {
      d.forEach((k, v) -> all.put(k, String.valueOf(v)));
    }
    return all;
  }

  private static StkShortcode read(Document d) {
    return new StkShortcode(d.getString("_id"), StkTransactionType.valueOf(d.getString("type")), d.getString("partyB"),
        d.getBoolean("active", false), d.getString("consumerKey"), d.getString("consumerSecret"),
        d.getString("passkey"), fingerprints(d.get("fingerprints", Document.class)), d.getString("callbackSegment"), d.get("version", Number.class).longValue(),
        d.getDate("updatedAt").toInstant());
  }
}
