package dev.lipa.store;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DocumentWithPosition;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.Oplog;
import java.util.List;
import java.util.stream.Stream;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A database of the on-disk store: its collections keep their documents as BSON in the file ({@link FileMaps}), each
 * change handed to the backend's log as it is made; unique indexes are wrapped in a {@link PinnedKeyIndex}, non-unique
 * ones kept as {@link SortedIndex}es in maps of the file, and queries read through the {@link QueryPlanner}. A change of
 * the file's structure (a collection or an index created or dropped) is told to the {@link GroupCommit}, which a
 * checkpoint carries instead of the log.
 */
final class H2StoreDatabase extends H2Database {

  private static final Logger log = LoggerFactory.getLogger(H2StoreDatabase.class);
  /** Documents an index build reads between two commits, so that a large build never holds the heap. */
  private static final int BUILD_COMMIT_EVERY = 20_000;

  /**
   * What a database needs of its backend. H2Database's constructor opens the existing collections while the backend's
   * own constructor is still opening the file, before the backend's fields are set: each call reads them as they are.
   */
  interface Backend {

    /** False while the backend's constructor opens the file's databases, before any client can connect. */
    boolean opened();

    /** Logs a change of a document as it is made: its new state, or null when it is removed. */
    void logged(H2Collection collection, Object id, Document document);

    /** Counts a document matched against a query. */
    void examined();

    /** The backend's H2 file. */
    MVStore getMvStore();
  }

  /** The backend of the database being constructed on this thread (see {@link #backend()}). */
  private static final ThreadLocal<Backend> CONSTRUCTING = new ThreadLocal<>();

  private final Backend backend;

  private H2StoreDatabase(String name, CursorRegistry cursors, Backend backend) {
    super(name, backend.getMvStore(), cursors);
    this.backend = backend;
  }

  /** Opens the database of the backend's file (its existing collections and indexes) or starts it. */
  static H2StoreDatabase open(String name, CursorRegistry cursors, Backend backend) {
    CONSTRUCTING.set(backend);
    try {
      return new H2StoreDatabase(name, cursors, backend);
    } finally {
      CONSTRUCTING.remove();
    }
  }

  /**
   * The backend. H2Database's constructor opens the existing collections and their indexes before this class's field
   * is set (an inner class of the backend had it from the start): meanwhile it is the one being constructed here.
   */
  private Backend backend() {
    return backend != null ? backend : CONSTRUCTING.get();
  }

  private MVStore store() {
    return backend().getMvStore();
  }

  private IndexStates states() {
    return IndexStates.inFile(store().openMap(IndexStates.MAP));
  }

  /** mongo-java-server's own collection, on a data map whose documents are BSON (see {@link BsonDocumentType}). */
  @Override
  protected MongoCollection<Object> openOrCreateCollection(String collection, CollectionOptions options) {
    String namespace = getFullCollectionNamespace(collection);
    MVStore store = store();
    if (backend().opened()) {
      GroupCommit.structureChanged(); // a new collection: its maps come with the next checkpoint
    }
    MVMap<Object, Document> data = store.openMap(FileMaps.documents(namespace), FileMaps.bsonDocuments());
    MVMap<String, Object> meta = store.openMap(FileMaps.meta(namespace));
    return new PlannedCollection(collection, options, data, meta, cursorRegistry);
  }

  /**
   * mongo-java-server's own unique index, on a map whose keys are written and ordered by {@link KeyValueType}: the map
   * is opened here first, by the name the index gives it, so the index finds it open with that type.
   */
  @Override
  protected Index<Object> openOrCreateUniqueIndex(String collection, String indexName, List<IndexKey> keys,
      boolean sparse) {
    String name = FileMaps.uniqueIndex(getFullCollectionNamespace(collection), indexName);
    if (backend().opened()) {
      GroupCommit.structureChanged();
    }
    IndexStates.State state = states().of(name, store().hasMap(name));
    store().openMap(name, FileMaps.uniqueKeys());
    return new PinnedKeyIndex<>(indexName, super.openOrCreateUniqueIndex(collection, indexName, keys, sparse),
        sparse, state);
  }

  /**
   * A {@link SortedIndex} whose keys live in a map of the file. One found unbuilt while the store opens the file (a
   * file from before the indexes were kept on disk, or a build cut short) is built from the documents there and then,
   * committed as it goes; one created on a running store is filled by the store in the creating command.
   */
  @Override
  protected Index<Object> openOrCreateSecondaryIndex(String collection, String indexName, List<IndexKey> keys,
      boolean sparse) {
    String namespace = getFullCollectionNamespace(collection);
    String name = FileMaps.sortedIndex(namespace, indexName);
    MVStore store = store();
    boolean opened = backend().opened();
    if (opened) {
      GroupCommit.structureChanged();
    }
    IndexStates.State state = states().of(name, store.hasMap(name));
    SortedKeyType order = SortedIndex.order(keys);
    MVMap<KeyValue, Boolean> map = store.openMap(name, FileMaps.sortedKeys(order));
    SortedIndex<Object> index = new SortedIndex<>(indexName, keys, sparse, IndexEntries.inFile(map), order, state);
    if (!opened && !state.isBuilt()) {
      long started = System.nanoTime();
      MVMap<Object, Document> data = store.openMap(FileMaps.documents(namespace), FileMaps.bsonDocuments());
      index.build(data.entrySet().iterator(), store::commit, BUILD_COMMIT_EVERY);
      store.commit();
      StoreStatus.indexBuiltAtOpen();
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
    for (String name : List.of(FileMaps.sortedIndex(namespace, indexName),
        FileMaps.uniqueIndex(namespace, indexName))) {
      if (store().hasMap(name)) {
        store().removeMap(name);
      }
      states().forget(name);
    }
  }

  /**
   * mongo-java-server's collection on the file's maps, its changes logged, its queries read through the planner and its
   * matches counted.
   *
   * <p>The map's documents are its own, never handed out: the store changes documents it has stored or read (an
   * upsert's after the insert, results while it answers), while H2's writer may be writing that very object to the
   * file, and a concurrent modification there closes the store for good (H2's Java serialisation of documents was
   * exposed to the same race). So a document goes in as a copy and comes out as one.
   */
  private final class PlannedCollection extends H2Collection {

    PlannedCollection(String collection, CollectionOptions options, MVMap<Object, Document> data,
        MVMap<String, Object> meta, CursorRegistry cursors) {
      super(H2StoreDatabase.this, collection, options, data, meta, cursors);
    }

    @Override
    protected Object addDocumentInternal(Document document) {
      Document copy = document.cloneDeeply();
      backend().logged(this, getIdField() == null ? null : Utils.getSubdocumentValue(copy, getIdField()), copy);
      return super.addDocumentInternal(copy);
    }

    @Override
    protected void handleUpdate(Object position, Document oldDocument, Document newDocument) {
      Document copy = newDocument.cloneDeeply();
      backend().logged(this, position, copy);
      super.handleUpdate(position, oldDocument, copy);
    }

    @Override
    protected void removeDocument(Object position) {
      backend().logged(this, position, null);
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
      backend().examined();
      return super.documentMatchesQuery(document, query);
    }
  }
}
