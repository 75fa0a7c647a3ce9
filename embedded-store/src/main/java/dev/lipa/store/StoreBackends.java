package dev.lipa.store;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import java.nio.file.Path;
import java.util.List;
import org.h2.mvstore.MVStore;

/**
 * The embedded store's two backends (memory, and H2 on disk) with every unique index wrapped in a
 * {@link PinnedKeyIndex}, so that lookups by {@code _id} (or another unique key) plus further conditions use the index
 * the way a real MongoDB does instead of scanning the collection, and with the non-unique indexes the services create
 * kept as {@link SecondaryIndex}es (mongo-java-server itself ignores them), so that the sweeps' queries do not scan
 * either.
 */
public final class StoreBackends {

  private StoreBackends() {
  }

  public static MongoBackend memory() {
    return new Memory();
  }

  public static MongoBackend h2(Path file) {
    return new H2(file.toAbsolutePath().toString());
  }

  private static final class Memory extends MemoryBackend {

    @Override
    public MemoryDatabase openOrCreateDatabase(String name) {
      return new MemoryDatabase(name, getCursorRegistry()) {
        @Override
        protected Index<Integer> openOrCreateUniqueIndex(String collection, String indexName, List<IndexKey> keys,
            boolean sparse) {
          return new PinnedKeyIndex<>(indexName, super.openOrCreateUniqueIndex(collection, indexName, keys, sparse),
              sparse);
        }

        @Override
        protected Index<Integer> openOrCreateSecondaryIndex(String collection, String indexName, List<IndexKey> keys,
            boolean sparse) {
          return new SecondaryIndex<>(indexName, keys);
        }
      };
    }
  }

  private static final class H2 extends H2Backend {

    H2(String file) {
      super(file);
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String name) {
      return new PinnedH2Database(name, getMvStore(), getCursorRegistry());
    }
  }

  private static final class PinnedH2Database extends H2Database {

    PinnedH2Database(String name, MVStore store, CursorRegistry cursors) {
      super(name, store, cursors);
    }

    @Override
    protected Index<Object> openOrCreateUniqueIndex(String collection, String indexName, List<IndexKey> keys,
        boolean sparse) {
      return new PinnedKeyIndex<>(indexName, super.openOrCreateUniqueIndex(collection, indexName, keys, sparse),
          sparse);
    }

    @Override
    protected Index<Object> openOrCreateSecondaryIndex(String collection, String indexName, List<IndexKey> keys,
        boolean sparse) {
      return new SecondaryIndex<>(indexName, keys);
    }
  }
}
