package dev.lipa.payouts.requests;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import java.util.Optional;
import java.util.function.Function;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The fields and unique indexes that let a store recognise a repeated request (see {@link RequestIdentity}):
 * {@code referenceKey} (organisation, endpoint and referenceId in one field, present only with a referenceId) and
 * {@code idempotencyKey}, each under a sparse unique index, and the body's {@code fingerprint}.
 *
 * <p>The idempotency field holds the key's id, not the key store's per-life {@code recordKey}: the key store forgets
 * a key whose request failed (a 5xx releases it), and a transfer or top-up that was written before the failure must
 * still be found by the retry, or the retry would move the money a second time. So a key names its record for as
 * long as the record exists, not only for the key store's 24 hours.
 */
public final class RequestKeys {

  static final String REFERENCE_ID = "referenceId";
  static final String REFERENCE_KEY = "referenceKey";
  static final String IDEMPOTENCY_KEY = "idempotencyKey";
  static final String FINGERPRINT = "fingerprint";

  private RequestKeys() {
  }

  /** Creates the two unique indexes, named {@code <prefix>_reference_unique} and {@code <prefix>_idempotency_unique}. */
  public static void createIndexes(MongoCollection<Document> collection, String prefix) {
    collection.createIndex(Indexes.ascending(REFERENCE_KEY),
        new IndexOptions().name(referenceIndex(prefix)).unique(true).sparse(true));
    collection.createIndex(Indexes.ascending(IDEMPOTENCY_KEY),
        new IndexOptions().name(idempotencyIndex(prefix)).unique(true).sparse(true));
  }

  /** Adds the request's referenceId, keys and fingerprint to a new record's document. */
  static Document stamp(Document document, RequestIdentity identity) {
    if (identity.referenceId() != null) {
      document.append(REFERENCE_ID, identity.referenceId()).append(REFERENCE_KEY, identity.referenceKey());
    }
    if (identity.idempotencyKey() != null) {
      document.append(IDEMPOTENCY_KEY, identity.idempotencyKey());
    }
    return document.append(FINGERPRINT, identity.fingerprint());
  }

  /** The stored referenceId of a record, or null. */
  public static String referenceId(Document document) {
    return document.getString(REFERENCE_ID);
  }

  /**
   * The record an earlier request with the same referenceId, or else the same Idempotency-Key, created, read with
   * {@code reader}; each lookup is also filtered on the organisation field of the collection.
   */
  public static <T> Optional<Match<T>> findRepeat(MongoCollection<Document> collection, String organisationField,
      RequestIdentity identity, Bson projection, Function<Document, T> reader) {
    if (identity.referenceId() != null) {
      Document found = collection.find(Filters.and(Filters.eq(REFERENCE_KEY, identity.referenceKey()),
          Filters.eq(organisationField, identity.organisationId().value()))).projection(projection).first();
      if (found != null) {
        return Optional.of(new Match<>(reader.apply(found), found.getString(FINGERPRINT), true));
      }
    }
    if (identity.idempotencyKey() != null) {
      Document found = collection.find(Filters.and(Filters.eq(IDEMPOTENCY_KEY, identity.idempotencyKey()),
          Filters.eq(organisationField, identity.organisationId().value()))).projection(projection).first();
      if (found != null) {
        return Optional.of(new Match<>(reader.apply(found), found.getString(FINGERPRINT), false));
      }
    }
    return Optional.empty();
  }

  /**
   * Inserts a new record's document stamped with the request's referenceId, keys and fingerprint.
   *
   * @throws RepeatedRequestException when an earlier request holds the referenceId or the key (nothing was written)
   */
  public static void insert(MongoCollection<Document> collection, String prefix, Document document,
      RequestIdentity identity) {
    try {
      collection.insertOne(stamp(document, identity));
    } catch (MongoWriteException e) {
      if (isRepeat(e, prefix)) {
        throw new RepeatedRequestException();
      }
      throw e;
    }
  }

  /** Whether an insert failed on one of the two unique indexes: an earlier request holds the referenceId or key. */
  private static boolean isRepeat(MongoWriteException e, String prefix) {
    if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
      return false;
    }
    String message = String.valueOf(e.getError().getMessage());
    return message.contains(referenceIndex(prefix)) || message.contains(REFERENCE_KEY)
        || message.contains(idempotencyIndex(prefix)) || message.contains(IDEMPOTENCY_KEY);
  }

  private static String referenceIndex(String prefix) {
    return prefix + "_reference_unique";
  }

  private static String idempotencyIndex(String prefix) {
    return prefix + "_idempotency_unique";
  }

  /**
   * A record an earlier request created.
   *
   * @param fingerprint the fingerprint of that request's body
   * @param byReference true when found by referenceId, false when by Idempotency-Key
   */
  public record Match<T>(T record, String fingerprint, boolean byReference) {

    /** Whether the repeat has the same body as the request that created the record. */
    public boolean sameBodyAs(RequestIdentity identity) {
      return identity.fingerprint().equals(fingerprint);
    }
  }
}
