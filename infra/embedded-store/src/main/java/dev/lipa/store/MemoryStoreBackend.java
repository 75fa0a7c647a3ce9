package dev.lipa.store;

import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import java.util.List;

/**
 * The in-memory backend: mongo-java-server's, with each unique index wrapped in a {@link PinnedKeyIndex}, each
 * non-unique one kept as a {@link SortedIndex} on a {@code TreeMap}, and queries read through the {@link QueryPlanner}.
 */
final class MemoryStoreBackend extends MemoryBackend {

  private final StoreStatus status = new StoreStatus();

  @Override
  public MemoryDatabase openOrCreateDatabase(String name) {
    return new MemoryDatabase(name, getCursorRegistry()) {
      @Override
      protected MemoryCollection openOrCreateCollection(String collection, CollectionOptions options) {
        return new PlannedCollection(this, collection, options, cursorRegistry);
      }

      @Override
      protected Index<Integer> openOrCreateUniqueIndex(String collection, String indexName, List<IndexKey> keys,
          boolean sparse) {
        return new PinnedKeyIndex<>(indexName, super.openOrCreateUniqueIndex(collection, indexName, keys, sparse),
            sparse, null);
      }

      @Override
      protected Index<Integer> openOrCreateSecondaryIndex(String collection, String indexName, List<IndexKey> keys,
          boolean sparse) {
        SortedKeyType order = SortedIndex.order(keys);
        return new SortedIndex<>(indexName, keys, sparse, IndexEntries.inMemory(order), order,
            IndexStates.inMemory());
      }
    };
  }

  /** A write of more statements than the store advertises is refused ({@link WriteBatches}). */
  @Override
  public Document handleCommand(Channel channel, String database, String command, Document query) {
    WriteBatches.check(command, query);
    return super.handleCommand(channel, database, command, query);
  }

  @Override
  public Document getServerStatus() {
    return status.addTo(super.getServerStatus());
  }

  /** mongo-java-server's collection, its queries read through the planner and its matches counted. */
  private final class PlannedCollection extends MemoryCollection {

    PlannedCollection(MemoryDatabase database, String collection, CollectionOptions options,
        CursorRegistry cursors) {
      super(database, collection, options, cursors);
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
        Document fields) {
      return QueryPlanner.query(getIndexes(), query, orderBy, this::getDocument, this::documentMatchesQuery,
          () -> super.queryDocuments(query, orderBy, skip, limit, batchSize, fields),
          (found, sort) -> matchDocumentsFromStream(QueryPlanner.EVERYTHING, found, skip, limit, batchSize, sort,
              fields));
    }

    @Override
    protected boolean documentMatchesQuery(Document document, Document query) {
      if (query == QueryPlanner.EVERYTHING) {
        return true;
      }
      status.examined();
      return super.documentMatchesQuery(document, query);
    }
  }
}
