package dev.lipa.store;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.ArrayFilters;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DocumentWithPosition;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.NoopOplog;
import de.bwaldvogel.mongo.oplog.Oplog;
import de.bwaldvogel.mongo.wire.message.MongoQuery;
import io.netty.channel.Channel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded store's two backends (memory, and H2 on disk) with every unique index wrapped in a
 * {@link PinnedKeyIndex}, so that lookups by {@code _id} (or another unique key) plus further conditions use the index
 * the way a real MongoDB does instead of scanning the collection, and with the non-unique indexes the services create
 * kept as {@link SecondaryIndex}es (mongo-java-server itself ignores them), so that the sweeps' queries do not scan
 * either. On H2 the documents and the unique indexes' keys are written as BSON ({@link BsonDocumentType},
 * {@link KeyValueType}), not in Java serialisation.
 */
public final class StoreBackends {

  private static final Logger log = LoggerFactory.getLogger(StoreBackends.class);

  /** The map in the H2 file that says how its documents are written. */
  static final String FORMAT_MAP = "lipa.format";
  static final String DOCUMENTS_KEY = "documents";
  static final String BSON_FORMAT = "bson-1";
  private static final String DATA_PREFIX = "databases.";
  private static final String META_PREFIX = "meta.";
  /** Between a collection's namespace and an index's name in the name of the index's map. */
  private static final String INDEX_INFIX = "._index_";
  /** Between a collection's namespace and a sorted (non-unique) index's name in the name of the index's map. */
  private static final String SORTED_INFIX = "._sorted_";
  /** A map converted by a conversion that has not finished yet, in {@link #FORMAT_MAP}. */
  private static final String CONVERTED = "converted:";

  private StoreBackends() {
  }

  public static MongoBackend memory() {
    return new Memory();
  }

  /**
   * The on-disk backend on {@code file} with the default {@link Durability}, logging a fatal failure (after which it
   * refuses every command): for tests and tools. The store process passes its own settings and failure handler.
   */
  public static MongoBackend h2(Path file) {
    return h2(file, Durability.DEFAULT, StoreFailure.LOG);
  }

  /**
   * The on-disk backend on {@code file}, its documents and unique index keys stored as BSON ({@link BsonDocumentType},
   * {@link KeyValueType}). A file from before that change (both in Java serialisation) is converted first, in place,
   * once. It answers a command only once the file holds what the command wrote and read ({@link GroupCommit}); H2's
   * background writer is off, and no writer's thread commits when unsaved changes pile up
   * ({@code autoCommitBufferSize(0)}): the group commit's committer is the only one.
   *
   * @param onFatal told once when the store can no longer keep that promise (see {@link StoreFailure})
   */
  public static MongoBackend h2(Path file, Durability durability, StoreFailure onFatal) {
    return h2(file, durability, Housekeeping.standard(), onFatal);
  }

  static MongoBackend h2(Path file, Durability durability, Housekeeping housekeeping, StoreFailure onFatal) {
    String name = file.toAbsolutePath().toString();
    convertToBson(name);
    FatalState fatal = new FatalState(onFatal);
    MVStore store = new MVStore.Builder().fileName(name).autoCommitDisabled().autoCommitBufferSize(0)
        .backgroundExceptionHandler((thread, e) -> fatal.fail("the H2 writer failed", e)).open();
    try {
      return new H2(store, Path.of(name), durability, housekeeping, fatal);
    } catch (RuntimeException e) {
      store.closeImmediately();
      throw e;
    }
  }

  /** The group commit of an on-disk backend made here: for tests and the benchmark. */
  static GroupCommit groupCommit(MongoBackend backend) {
    return ((H2) backend).commits();
  }

  /**
   * Rewrites the documents and unique index keys of a file written with H2's generic type as BSON, map by map: each
   * collection's documents (each index's keys) are copied into a new map of the BSON type, which then takes the old
   * map's name, and is noted as converted in the same commit; a conversion cut short goes on with the maps not yet
   * converted the next time. A new file is only marked.
   */
  static void convertToBson(String file) {
    MVStore store = MVStore.open(file);
    try {
      MVMap<String, String> format = store.openMap(FORMAT_MAP);
      if (BSON_FORMAT.equals(format.get(DOCUMENTS_KEY))) {
        return;
      }
      String scratch = "lipa.converting.";
      for (String name : store.getMapNames()) {
        if (name.startsWith(scratch)) {
          store.removeMap(name); // a conversion cut short: its copy is incomplete, the original still there
        }
      }
      long started = System.nanoTime();
      long documents = 0;
      int collections = 0;
      for (String name : store.getMapNames()) {
        if (format.containsKey(CONVERTED + name)) {
          continue; // converted before a conversion was cut short
        }
        if (name.startsWith(DATA_PREFIX)) {
          MVMap<Object, Object> original = store.openMap(name);
          MVMap<Object, Document> copy = store.openMap(scratch + name, bsonDocuments());
          original.forEach((id, document) -> copy.put(id, (Document) document));
          documents += copy.sizeAsLong();
          collections++;
          replace(store, format, original, copy, name);
        } else if (name.contains(INDEX_INFIX)) {
          MVMap<Object, Object> original = store.openMap(name);
          MVMap<KeyValue, Object> copy = store.openMap(scratch + name, uniqueKeys());
          original.forEach((key, position) -> copy.put((KeyValue) key, position));
          replace(store, format, original, copy, name);
        }
      }
      format.put(DOCUMENTS_KEY, BSON_FORMAT);
      for (String key : List.copyOf(format.keySet())) {
        if (key.startsWith(CONVERTED)) {
          format.remove(key);
        }
      }
      store.commit();
      if (collections > 0) {
        log.info("converted {} documents in {} collections of {} to BSON in {} ms", documents, collections, file,
            (System.nanoTime() - started) / 1_000_000);
      }
    } finally {
      store.close();
    }
  }

  /** The converted copy takes the original's name, marked as converted in the same commit. */
  private static void replace(MVStore store, MVMap<String, String> format, MVMap<?, ?> original, MVMap<?, ?> copy,
      String name) {
    store.removeMap(original);
    store.renameMap(copy, name);
    format.put(CONVERTED + name, BSON_FORMAT);
    store.commit();
  }

  private static MVMap.Builder<KeyValue, Object> uniqueKeys() {
    return new MVMap.Builder<KeyValue, Object>().keyType(KeyValueType.INSTANCE);
  }

  private static MVMap.Builder<Object, Document> bsonDocuments() {
    return new MVMap.Builder<Object, Document>().valueType(BsonDocumentType.INSTANCE);
  }

  private static final class Memory extends MemoryBackend {

    private final AtomicLong examined = new AtomicLong();

    @Override
    public MemoryDatabase openOrCreateDatabase(String name) {
      return new MemoryDatabase(name, getCursorRegistry()) {
        @Override
        protected MemoryCollection openOrCreateCollection(String collection, CollectionOptions options) {
          return new MemoryCollection(this, collection, options, cursorRegistry) {
            @Override
            protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
                Document fields) {
              return QueryPlanner.query(getIndexes(), query, orderBy, this::getDocument,
                  d -> documentMatchesQuery(d, query), deriveComparator(orderBy),
                  () -> super.queryDocuments(query, orderBy, skip, limit, batchSize, fields),
                  (found, sort) -> matchDocumentsFromStream(EVERYTHING, found, skip, limit, batchSize, sort, fields));
            }

            @Override
            protected boolean documentMatchesQuery(Document document, Document query) {
              if (query == EVERYTHING) {
                return true;
              }
              examined.incrementAndGet();
              return super.documentMatchesQuery(document, query);
            }
          };
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

    @Override
    public Document getServerStatus() {
      return withExamined(super.getServerStatus(), examined);
    }
  }

  private static final class H2 extends H2Backend {

    /** Documents an index build reads between two commits, so that a large build never holds the heap. */
    private static final int BUILD_COMMIT_EVERY = 20_000;

    private final AtomicLong examined = new AtomicLong();
    /**
     * False while the backend's constructor opens the file's databases (fields of this class are not set yet then):
     * an index found unbuilt is built then, with commits as it goes, before any client can connect.
     */
    private final boolean opened;
    private final GroupCommit commits;

    /** The write-ahead log; null until the records after the file's last checkpoint have been applied again. */
    private final WriteAheadLog wal;

    H2(MVStore store, Path file, Durability durability, Housekeeping housekeeping, FatalState fatal) {
      super(store);
      opened = true;
      WriteAheadLog replayed = WriteAheadLog.open(file, GroupCommit.checkpointed(store), this::replay);
      this.wal = replayed;
      this.commits = new GroupCommit(store, replayed, durability, housekeeping, fatal);
    }

    /** Every command (OP_MSG, and OP_QUERY on {@code $cmd}) is answered once the disk holds what it did and saw. */
    @Override
    public Document handleCommand(Channel channel, String database, String command, Document query) {
      return commits.run(command, () -> super.handleCommand(channel, database, command, query));
    }

    /** A legacy OP_QUERY on a collection, the same way. */
    @Override
    public QueryResult handleQuery(MongoQuery query) {
      return commits.run(null, () -> super.handleQuery(query));
    }

    /**
     * Applies a logged change again, through the collection (so its indexes follow): the document's new state replaces
     * the one the file holds (or is inserted), or the document is removed.
     */
    private void replay(WriteAheadLog.Change change) {
      MongoDatabase database = resolveDatabase(change.database());
      MongoCollection<?> collection = database.resolveCollection(change.collection(), false);
      if (collection == null) {
        collection = database.createCollectionOrThrowIfExists(change.collection(), CollectionOptions.withDefaults());
      }
      Document selector = new Document("_id", change.id());
      if (change.document() == null) {
        collection.deleteDocuments(selector, 1, NoopOplog.get());
      } else {
        collection.updateDocuments(selector, change.document(), ArrayFilters.empty(), false, true, NoopOplog.get());
      }
    }

    /**
     * Logs a change of a document as it is made, before the file's map changes, so that no command can see a change
     * that is not in the log. The system collections (index and namespace descriptions) change with the file's
     * structure, which a checkpoint carries instead.
     */
    private void logged(H2Collection collection, Object id, Document document) {
      if (collection.getCollectionName().startsWith("system.")) {
        GroupCommit.structureChanged();
      } else if (wal != null) {
        wal.append(collection.getDatabaseName(), collection.getCollectionName(), id, document);
      }
    }

    GroupCommit commits() {
      return commits;
    }

    @Override
    public void close() {
      commits.close();
      MVStore store = getMvStore();
      if (store.getPanicException() != null) {
        store.closeImmediately(); // H2's close commits first, and that commit spins for ever on a store that panicked
      }
      super.close();
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String name) {
      return new PinnedH2Database(name, getMvStore(), getCursorRegistry());
    }

    @Override
    public Document getServerStatus() {
      return withExamined(super.getServerStatus(), examined);
    }

    /**
     * An inner class, not a static one: H2Database's constructor opens the existing collections before a subclass's
     * own fields are set, and the enclosing backend (its store) is already there at that point.
     */
    private final class PinnedH2Database extends H2Database {

      PinnedH2Database(String name, MVStore store, CursorRegistry cursors) {
        super(name, store, cursors);
      }

      private IndexStates states() {
        return IndexStates.inFile(getMvStore().openMap(IndexStates.MAP));
      }

      /** mongo-java-server's own collection, on a data map whose documents are BSON (see {@link BsonDocumentType}). */
      @Override
      protected MongoCollection<Object> openOrCreateCollection(String collection, CollectionOptions options) {
        String namespace = getFullCollectionNamespace(collection);
        MVStore store = getMvStore();
        if (opened) {
          GroupCommit.structureChanged(); // a new collection: its maps come with the next checkpoint
        }
        MVMap<Object, Document> data = store.openMap(DATA_PREFIX + namespace, bsonDocuments());
        MVMap<String, Object> meta = store.openMap(META_PREFIX + namespace);
        return new H2Collection(this, collection, options, data, meta, cursorRegistry) {
          // The map's documents are its own, never handed out: the store changes documents it has stored or read
          // (an upsert's after the insert, results while it answers), while H2's background writer may be writing
          // that very object to the file, and a concurrent modification there closes the store for good (H2's Java
          // serialisation of documents was exposed to the same race). So a document goes in as a copy and comes out
          // as one.
          @Override
          protected Object addDocumentInternal(Document document) {
            Document copy = document.cloneDeeply();
            logged(this, getIdField() == null ? null : Utils.getSubdocumentValue(copy, getIdField()), copy);
            return super.addDocumentInternal(copy);
          }

          @Override
          protected void handleUpdate(Object position, Document oldDocument, Document newDocument) {
            Document copy = newDocument.cloneDeeply();
            logged(this, position, copy);
            super.handleUpdate(position, oldDocument, copy);
          }

          @Override
          protected void removeDocument(Object position) {
            logged(this, position, null);
            super.removeDocument(position);
          }

          @Override
          protected Document getDocument(Object position) {
            Document document = super.getDocument(position);
            return document == null ? null : document.cloneDeeply();
          }

          @Override
          protected Stream<DocumentWithPosition<Object>> streamAllDocumentsWithPosition() {
            return super.streamAllDocumentsWithPosition()
                .map(found -> new DocumentWithPosition<>(found.getDocument().cloneDeeply(), found.getPosition()));
          }

          @Override
          protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
              Document fields) {
            return QueryPlanner.query(getIndexes(), query, orderBy, this::getDocument,
                d -> documentMatchesQuery(d, query), deriveComparator(orderBy),
                () -> super.queryDocuments(query, orderBy, skip, limit, batchSize, fields),
                (found, sort) -> matchDocumentsFromStream(EVERYTHING, found, skip, limit, batchSize, sort, fields));
          }

          @Override
          protected boolean documentMatchesQuery(Document document, Document query) {
            if (query == EVERYTHING) {
              return true;
            }
            examine();
            return super.documentMatchesQuery(document, query);
          }
        };
      }

      /**
       * mongo-java-server's own unique index, on a map whose keys are written and ordered by {@link KeyValueType}: the
       * map is opened here first, by the name the index gives it, so the index finds it open with that type.
       */
      @Override
      protected Index<Object> openOrCreateUniqueIndex(String collection, String indexName, List<IndexKey> keys,
          boolean sparse) {
        String name = getFullCollectionNamespace(collection) + INDEX_INFIX + indexName;
        if (opened) {
          GroupCommit.structureChanged();
        }
        IndexStates.State state = states().of(name, getMvStore().hasMap(name));
        getMvStore().openMap(name, uniqueKeys());
        return new PinnedKeyIndex<>(indexName, super.openOrCreateUniqueIndex(collection, indexName, keys, sparse),
            sparse, state);
      }

      /**
       * A {@link SortedIndex} whose keys live in a map of the file. One found unbuilt while the store opens the file
       * (a file from before the indexes were kept on disk, or a build cut short) is built from the documents there and
       * then, committed as it goes; one created on a running store is filled by the store in the creating command.
       */
      @Override
      protected Index<Object> openOrCreateSecondaryIndex(String collection, String indexName, List<IndexKey> keys,
          boolean sparse) {
        String namespace = getFullCollectionNamespace(collection);
        String name = namespace + SORTED_INFIX + indexName;
        MVStore store = getMvStore();
        if (opened) {
          GroupCommit.structureChanged();
        }
        IndexStates.State state = states().of(name, store.hasMap(name));
        SortedKeyType order = SortedIndex.order(keys);
        MVMap<KeyValue, Boolean> map = store.openMap(name, new MVMap.Builder<KeyValue, Boolean>().keyType(order));
        SortedIndex<Object> index = new SortedIndex<>(indexName, keys, sparse, IndexEntries.inFile(map), order, state);
        if (!opened && !state.isBuilt()) {
          long started = System.nanoTime();
          MVMap<Object, Document> data = store.openMap(DATA_PREFIX + namespace, bsonDocuments());
          index.build(data.entrySet().iterator(), store::commit, BUILD_COMMIT_EVERY);
          store.commit();
          INDEX_BUILDS_AT_OPEN.incrementAndGet();
          log.info("built index {} of {} from {} documents in {} ms", indexName, namespace, data.sizeAsLong(),
              (System.nanoTime() - started) / 1_000_000);
        }
        return index;
      }

      @Override
      public void dropCollection(String collectionName, Oplog oplog) {
        GroupCommit.structureChanged();
        super.dropCollection(collectionName, oplog);
      }

      @Override
      protected void dropIndex(MongoCollection<Object> collection, String indexName) {
        GroupCommit.structureChanged();
        super.dropIndex(collection, indexName);
        String namespace = getFullCollectionNamespace(collection.getCollectionName());
        for (String name : List.of(namespace + SORTED_INFIX + indexName, namespace + INDEX_INFIX + indexName)) {
          if (getMvStore().hasMap(name)) {
            getMvStore().removeMap(name);
          }
          states().forget(name);
        }
      }
    }

    /** Counts a document matched against a query; not while the constructor opens the file (no counter yet). */
    private void examine() {
      AtomicLong counter = examined;
      if (counter != null) {
        counter.incrementAndGet();
      }
    }
  }

  /**
   * serverStatus with the number of documents the store has matched against a query since it started, and the number
   * of indexes built from a collection's documents while a file was opened, in this process.
   */
  private static Document withExamined(Document status, AtomicLong examined) {
    status.put("lipa", new Document("documentsExamined", examined.get()).append("indexBuildsAtOpen",
        INDEX_BUILDS_AT_OPEN.get()));
    return status;
  }

  /** Counted in the process, not per backend: a backend's own fields do not exist yet while it opens its file. */
  private static final AtomicLong INDEX_BUILDS_AT_OPEN = new AtomicLong();

  /**
   * Identity marks the query that matches everything: the planner has matched the documents already, and the store's
   * last pass over them (skip, limit, projection) must neither match nor count them again.
   */
  private static final Document EVERYTHING = new Document();
}
