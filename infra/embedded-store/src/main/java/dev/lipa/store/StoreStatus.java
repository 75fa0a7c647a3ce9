package dev.lipa.store;

import de.bwaldvogel.mongo.bson.Document;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the store adds to serverStatus under {@code lipa}: the documents a backend has matched against a query since it
 * started (so a test or the benchmark sees that a list read its page, not its collection), and the indexes built from a
 * collection's documents while a file was opened, in this process.
 */
final class StoreStatus {

  /** Counted in the process, not per backend: a backend's own fields do not exist yet while it opens its file. */
  private static final AtomicLong INDEX_BUILDS_AT_OPEN = new AtomicLong();

  private final AtomicLong examined = new AtomicLong();

  /** Counts a document matched against a query. */
  void examined() {
    examined.incrementAndGet();
  }

  static void indexBuiltAtOpen() {
    INDEX_BUILDS_AT_OPEN.incrementAndGet();
  }

  /** serverStatus with the store's counters added. */
  Document addTo(Document status) {
    status.put("lipa", new Document("documentsExamined", examined.get()).append("indexBuildsAtOpen",
        INDEX_BUILDS_AT_OPEN.get()));
    return status;
  }
}
