package dev.lipa.common.crypto;

import com.mongodb.client.MongoCollection;
import java.util.List;
import java.util.Optional;
import org.bson.Document;

/**
 * A collection whose documents hold sealed secrets, registered as a bean so that the re-wrap job keeps every one of
 * them under the primary master key ({@link SecretRewrap}).
 */
public interface SealedRecords {

  /** The collection (of the service's own database). */
  MongoCollection<Document> collection();

  /** The string fields that hold sealed secrets; a document without one is skipped. */
  List<String> fields();

  /** The associated data the document's secrets were sealed with ({@link SecretEnvelope#seal}'s context). */
  String context(Document document);

  /**
   * The secret of a value stored in a form older than the envelope's (a store's own earlier format), so that the
   * re-wrap seals it; empty when the value is in no form this store knows.
   */
  default Optional<String> openLegacy(Document document, String field, String value) {
    return Optional.empty();
  }
}
