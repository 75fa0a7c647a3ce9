package dev.lipa.common.once;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxEvent;
import java.util.List;
import java.util.function.Function;
import org.bson.Document;

/**
 * The unique indexes of a collection whose records are created at most once per request, and what a duplicate-key
 * error on each means for {@link CreateOnce}: the record's minted id (mint again), its referenceId and its
 * Idempotency-Key's record key (an earlier request holds them). The referenceId's index is on one field that holds
 * the organisation and the referenceId together and is present only with a referenceId: a compound sparse index
 * would still index a document without a referenceId on a real MongoDB, and the embedded store ignores partial
 * indexes; so a sparse index on one field behaves the same on both. The key's index is sparse for the same reason.
 *
 * @param id the minted id's index (not sparse)
 * @param reference the referenceId's index, or null where records have none
 * @param key the Idempotency-Key record key's index
 */
public record UniqueKeys(Index id, Index reference, Index key) {

  /** The field that keeps the fingerprint of the request that created the record. */
  public static final String FINGERPRINT = "fingerprint";

  /** A unique index by name and the one field it covers. */
  public record Index(String name, String field) {
  }

  /**
   * {@code <prefix>_id_unique} on {@code id}, {@code <prefix>_reference_unique} on {@code referenceKey} and
   * {@code <prefix>_idempotency_unique} on {@code idempotencyKey}.
   */
  public static UniqueKeys standard(String prefix) {
    return new UniqueKeys(new Index(prefix + "_id_unique", "id"),
        new Index(prefix + "_reference_unique", "referenceKey"),
        new Index(prefix + "_idempotency_unique", "idempotencyKey"));
  }

  /** Creates the indexes (at start-up; creating an existing index again changes nothing). */
  public void createIndexes(MongoCollection<Document> collection) {
    collection.createIndex(Indexes.ascending(id.field()), new IndexOptions().name(id.name()).unique(true));
    for (Index sparse : new Index[] {reference, key}) {
      if (sparse != null) {
        collection.createIndex(Indexes.ascending(sparse.field()),
            new IndexOptions().name(sparse.name()).unique(true).sparse(true));
      }
    }
  }

  /**
   * Inserts a new record's document with its events, stamped with its origin: the fingerprint and, with an
   * Idempotency-Key, the claim's record key in the key index's field. Says which of these keys refused it, if one did.
   */
  public Insert insert(Outbox outbox, Document document, Origin origin, List<OutboxEvent> events) {
    document.append(FINGERPRINT, origin.fingerprint());
    if (origin.idempotencyKey() != null) {
      document.append(key.field(), origin.idempotencyKey());
    }
    return insert(() -> outbox.insert(document, events));
  }

  /** A stored record, read with {@code reader}, with the fingerprint of the request that created it. */
  public static <T> Earlier<T> earlier(Document document, Function<Document, T> reader) {
    return new Earlier<>(reader.apply(document), document.getString(FINGERPRINT));
  }

  /**
   * Runs the insert of a new record and says which of these keys refused it, if one did (then nothing was written).
   * Every other failure, a duplicate on another index included, propagates.
   */
  public Insert insert(Runnable write) {
    try {
      write.run();
      return Insert.WRITTEN;
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
        throw e;
      }
      // MongoDB and the embedded store both name the index and the key's field in the message
      String message = String.valueOf(e.getError().getMessage());
      if (names(reference, message)) {
        return Insert.REFERENCE_TAKEN;
      }
      if (names(key, message)) {
        return Insert.KEY_TAKEN;
      }
      // by the index's name only: a field called "id" is named in most messages
      if (message.contains(id.name())) {
        return Insert.ID_TAKEN;
      }
      throw e;
    }
  }

  private static boolean names(Index index, String message) {
    return index != null && (message.contains(index.name()) || message.contains(index.field()));
  }
}
