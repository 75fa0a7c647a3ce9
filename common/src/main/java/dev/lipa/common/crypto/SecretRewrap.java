package dev.lipa.common.crypto;

import com.mongodb.client.model.Updates;
import java.util.Optional;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves every sealed secret of a collection to the primary master key, without touching the secrets themselves (see
 * {@link SecretEnvelope#rewrap}), and seals values still stored in a store's older form. Idempotent, and safe with
 * several replicas running it at once: each field is replaced by a compare-and-set on its old value, so a value
 * another replica (or a rotation of the secret) changed meanwhile is left as it is.
 *
 * <p>It reads the whole collection, across organisations: it is maintenance of the store, not a query on anyone's
 * behalf, and the collections it runs on hold a few documents per organisation at most.
 */
public final class SecretRewrap {

  private static final Logger log = LoggerFactory.getLogger(SecretRewrap.class);
  private static final int BATCH = 500;

  private final SecretEnvelope envelope;

  public SecretRewrap(SecretEnvelope envelope) {
    this.envelope = envelope;
  }

  /**
   * What one pass did.
   *
   * @param rewrapped values moved to the primary key (or sealed from an older form) by this pass
   * @param current values already under the primary key
   * @param changedMeanwhile values changed by someone else between the read and the write (they were written under
   *     that writer's primary key; the next pass checks them again)
   * @param unreadable values that do not open (named in the log): they stay as they are
   */
  public record Result(String collection, int rewrapped, int current, int changedMeanwhile, int unreadable) {

    /** Whether every value of the collection was under the primary key when the pass ended. */
    public boolean complete() {
      return changedMeanwhile == 0 && unreadable == 0;
    }
  }

  public Result run(SealedRecords records) {
    String collection = records.collection().getNamespace().getCollectionName();
    int rewrapped = 0;
    int current = 0;
    int changed = 0;
    int unreadable = 0;
    for (Document document : records.collection().find().batchSize(BATCH)) {
      for (String field : records.fields()) {
        if (!(document.get(field) instanceof String value)) {
          continue;
        }
        if (envelope.isCurrent(value)) {
          current++;
          continue;
        }
        String next;
        try {
          next = next(records, document, field, value);
        } catch (SecretUnreadableException e) {
          unreadable++;
          log.error("re-wrap: {} {} field {} does not open: {}", collection, document.get("_id"), field,
              e.getMessage());
          continue;
        }
        // one plain filter document: the embedded store serves a top-level _id from its index
        long matched = records.collection().updateOne(
            new Document("_id", document.get("_id")).append(field, value), Updates.set(field, next))
            .getMatchedCount();
        if (matched == 1) {
          rewrapped++;
        } else {
          changed++;
        }
      }
    }
    Result result = new Result(collection, rewrapped, current, changed, unreadable);
    if (unreadable > 0) {
      log.error("re-wrap of {}: {} secrets do not open (see above); {} re-wrapped under master key {}, {} already were",
          collection, unreadable, rewrapped, envelope.primaryKeyId(), current);
    } else if (rewrapped > 0 || changed > 0) {
      log.info("re-wrap of {}: {} secrets re-wrapped under master key {}, {} already were, {} changed meanwhile{}",
          collection, rewrapped, envelope.primaryKeyId(), current, changed,
          result.complete() ? "; every secret of " + collection + " is under " + envelope.primaryKeyId() : "");
    } else {
      log.debug("re-wrap of {}: all {} secrets under master key {}", collection, current, envelope.primaryKeyId());
    }
    return result;
  }

  private String next(SealedRecords records, Document document, String field, String value) {
    String context = records.context(document);
    if (SecretEnvelope.isStoredForm(value)) {
      return envelope.rewrap(value, context);
    }
    Optional<String> legacy = records.openLegacy(document, field, value);
    return envelope.seal(legacy.orElseThrow(() -> new SecretUnreadableException("a value in no known form")),
        context);
  }
}
