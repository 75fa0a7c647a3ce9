package dev.lipa.store;

import de.bwaldvogel.mongo.MongoBackend;
import java.nio.file.Path;
import org.h2.mvstore.MVStore;

/**
 * The embedded store's two backends (memory, and H2 on disk) with every unique index wrapped in a
 * {@link PinnedKeyIndex}, so that lookups by {@code _id} (or another unique key) plus further conditions use the index
 * the way a real MongoDB does instead of scanning the collection, and with the non-unique indexes the services create
 * kept as {@link SortedIndex}es (mongo-java-server itself ignores them) and read through the {@link QueryPlanner}, so
 * that the sweeps' queries do not scan either. On H2 the documents and the unique indexes' keys are written as BSON
 * ({@link BsonDocumentType}, {@link KeyValueType}), not in Java serialisation.
 */
public final class StoreBackends {

  private StoreBackends() {
  }

  /** The in-memory backend ({@link MemoryStoreBackend}). */
  public static MongoBackend memory() {
    return new MemoryStoreBackend();
  }

  /**
   * The on-disk backend on {@code file} with the default {@link Durability}, logging a fatal failure (after which it
   * refuses every command): for tests and tools. The store process passes its own settings and failure handler.
   */
  public static MongoBackend h2(Path file) {
    return h2(file, Durability.DEFAULT, StoreFailure.LOG);
  }

  /**
   * The on-disk backend on {@code file} ({@link H2StoreBackend}), its documents and unique index keys stored as BSON. A
   * file from before that change (both in Java serialisation) is converted first, in place, once
   * ({@link BsonConversion}). It answers a command only once the file holds what the command wrote and read
   * ({@link GroupCommit}); H2's background writer is off, and no writer's thread commits when unsaved changes pile up
   * ({@code autoCommitBufferSize(0)}): the group commit's committer is the only one.
   *
   * @param onFatal told once when the store can no longer keep that promise (see {@link StoreFailure})
   */
  public static MongoBackend h2(Path file, Durability durability, StoreFailure onFatal) {
    return h2(file, durability, Housekeeping.standard(), onFatal);
  }

  static MongoBackend h2(Path file, Durability durability, Housekeeping housekeeping, StoreFailure onFatal) {
    String name = file.toAbsolutePath().toString();
    BsonConversion.convert(name);
    FatalState fatal = new FatalState(onFatal);
    MVStore store = new MVStore.Builder().fileName(name).autoCommitDisabled().autoCommitBufferSize(0)
        .backgroundExceptionHandler((thread, e) -> fatal.fail("the H2 writer failed", e)).open();
    try {
      return new H2StoreBackend(store, Path.of(name), durability, housekeeping, fatal);
    } catch (RuntimeException e) {
      store.closeImmediately();
      throw e;
    }
  }

  /** The group commit of an on-disk backend made here: for tests and the benchmark. */
  static GroupCommit groupCommit(MongoBackend backend) {
    return ((H2StoreBackend) backend).commits();
  }
}
