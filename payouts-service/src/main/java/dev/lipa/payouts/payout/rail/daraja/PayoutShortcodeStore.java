package dev.lipa.payouts.payout.rail.daraja;

import com.mongodb.MongoServerException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReplaceOptions;
import dev.lipa.common.crypto.SealedRecords;
import dev.lipa.common.crypto.SecretEnvelope;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.bson.Document;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The {@code daraja_payout_shortcodes} collection: one document per shortcode ({@code _id}), its consumer key and
 * secret and its security credential sealed under the platform's master key ({@link SecretEnvelope}, bound to the
 * shortcode). Sparse unique indexes on {@code b2cSlot} and {@code b2bSlot} (set only on the shortcode serving that
 * product) keep each product on at most one shortcode, also when two operators change shortcodes at once.
 */
@Component
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class PayoutShortcodeStore implements SealedRecords {

  static final String COLLECTION = "daraja_payout_shortcodes";
  private static final int DUPLICATE_KEY = 11000;

  /** Another shortcode serves the product already. */
  static final class ProductTaken extends RuntimeException {
    ProductTaken() {
      super("another shortcode serves the product", null, false, false);
    }
  }

  private final MongoCollection<Document> shortcodes;
  private final SecretEnvelope envelope;

  PayoutShortcodeStore(MongoDatabase database, SecretEnvelope envelope) {
    this.shortcodes = database.getCollection(COLLECTION);
    this.envelope = envelope;
    for (String product : PayoutShortcodes.PRODUCTS) {
      shortcodes.createIndex(Indexes.ascending(product + "Slot"),
          new IndexOptions().name(COLLECTION + "_" + product + "_slot").unique(true).sparse(true));
    }
  }

  String seal(String shortcode, String secret) {
    return envelope.seal(secret, context(shortcode));
  }

  String open(String shortcode, String sealed) {
    return envelope.open(sealed, context(shortcode));
  }

  Optional<PayoutShortcode> find(String shortcode) {
    return Optional.ofNullable(shortcodes.find(Filters.eq("_id", shortcode)).first()).map(PayoutShortcodeStore::read);
  }

  /** The shortcode serving {@code product} ({@code b2c} or {@code b2b}). */
  Optional<PayoutShortcode> serving(String product) {
    return Optional.ofNullable(shortcodes.find(Filters.eq(product + "Slot", product)).first())
        .map(PayoutShortcodeStore::read);
  }

  List<PayoutShortcode> list() {
    List<PayoutShortcode> all = new ArrayList<>();
    shortcodes.find().sort(new Document("_id", 1)).limit(1000).forEach(d -> all.add(read(d)));
    return all;
  }

  /**
   * Writes the shortcode if it is still at {@code expectedVersion} (0: absent); false when another change came first.
   *
   * @throws ProductTaken when another shortcode serves one of its products
   */
  boolean save(PayoutShortcode shortcode, long expectedVersion) {
    Document doc = new Document("_id", shortcode.shortcode())
        .append("initiatorName", shortcode.initiatorName())
        .append("products", new ArrayList<>(shortcode.products()))
        .append("reconciled", shortcode.reconciled())
        .append("consumerKey", shortcode.sealedConsumerKey())
        .append("consumerSecret", shortcode.sealedConsumerSecret())
        .append("securityCredential", shortcode.sealedSecurityCredential())
        .append("fingerprints", new Document(shortcode.fingerprints()))
        .append("callbackSegment", shortcode.callbackSegment())
        .append("version", shortcode.version())
        .append("updatedAt", Date.from(shortcode.updatedAt()));
    shortcode.products().forEach(product -> doc.append(product + "Slot", product));
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
        return false;
      }
      throw new ProductTaken();
    }
  }

  @Override
  public MongoCollection<Document> collection() {
    return shortcodes;
  }

  @Override
  public List<String> fields() {
    return List.of("consumerKey", "consumerSecret", "securityCredential");
  }

  @Override
  public String context(Document document) {
    return context(document.getString("_id"));
  }

  private static String context(String shortcode) {
    return COLLECTION + ":" + shortcode;
  }

  private static PayoutShortcode read(Document d) {
    Map<String, String> fingerprints = new TreeMap<>();
    Document f = d.get("fingerprints", Document.class);
    if (f != null) {
      f.forEach((k, v) -> fingerprints.put(k, String.valueOf(v)));
    }
    return new PayoutShortcode(d.getString("_id"), d.getString("initiatorName"),
        // a shortcode stored before the funds reconciliation existed is reconciled, as every new one is by default
        new TreeSet<>(d.getList("products", String.class)), d.getBoolean("reconciled", true),
        d.getString("consumerKey"), d.getString("consumerSecret"), d.getString("securityCredential"), fingerprints,
        d.getString("callbackSegment"), d.get("version", Number.class).longValue(), d.getDate("updatedAt").toInstant());
  }
}
