package dev.lipa.store;

import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;
import java.util.Collection;
import java.util.Locale;

/**
 * The most statements one write command may carry: what the store advertises as {@code maxWriteBatchSize} in its
 * {@code isMaster} answer (mongo-java-server's 1,000), now also refused above it. Drivers split a larger
 * {@code insertMany} or bulk write into commands of that size; a client that ignores the limit could send 48 MB of
 * small documents in one command, and a command holds every page it changes on the store's heap until it ends (see
 * {@link Checkpoints#CHECKPOINT_UNSAVED_BYTES}). Refused as MongoDB refuses a batch over its own limit: error 16,
 * {@code InvalidLength}, before anything is written.
 */
final class WriteBatches {

  static final int MAX_STATEMENTS = 1_000;
  static final int INVALID_LENGTH = 16;

  private WriteBatches() {
  }

  /** Throws when {@code command} (insert, update or delete) carries more than {@link #MAX_STATEMENTS} statements. */
  static void check(String command, Document query) {
    // mongo-java-server takes a command's name in any case ("INSERT" inserts), so the limit does too
    String statements = switch (command.toLowerCase(Locale.ROOT)) {
      case "insert" -> "documents";
      case "update" -> "updates";
      case "delete" -> "deletes";
      default -> null;
    };
    if (statements != null && query.get(statements) instanceof Collection<?> list && list.size() > MAX_STATEMENTS) {
      throw new MongoServerError(INVALID_LENGTH, "InvalidLength", "Write batch sizes must be between 1 and "
          + MAX_STATEMENTS + ". Got " + list.size() + " operations.");
    }
  }
}
