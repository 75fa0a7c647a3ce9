package dev.lipa.store;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A non-unique index of the embedded store (mongo-java-server itself ignores them: "adding secondary index ... is not
 * yet implemented"), with every key the index declares, in the order and directions it declares: each document is
 * held under (its values of the indexed fields, its {@code _id}), a missing field as null, each element of an array
 * under a key of its own (a multikey field, as in MongoDB; see {@link IndexKeys}). {@link QueryPlanner} reads ranges
 * of it in key order, so a list such as "this organisation's pushes, newest first, 20 of them" reads about 20
 * documents, and a sweep "pending and created before t, oldest first" reads the ones it returns.
 *
 * <p>On H2 its keys live in a map of the store's file ({@link IndexEntries#inFile}), changed by the same command as
 * the documents and so stored by the same commit; reopening a file reads neither documents nor index keys. Its state
 * (built, multikey fields, unusable) is kept beside it ({@link IndexStates}). On the memory backend the keys are a
 * {@code TreeMap}.
 *
 * <p>A sparse index holds only the documents that have at least one of its fields, so it serves only queries that
 * name its first field with a condition no missing field meets. Should a value be one the store's comparator cannot
 * order, the index stops serving queries for good (logged and remembered) rather than answer without it.
 */
final class SortedIndex<P> extends Index<P> {

  private static final Logger log = LoggerFactory.getLogger(SortedIndex.class);

  private final List<String> fields;
  private final SortedKeyType order;
  private final IndexEntries<P> entries;
  private final IndexStates.State state;

  SortedIndex(String name, List<IndexKey> keys, boolean sparse, IndexEntries<P> entries, SortedKeyType order,
      IndexStates.State state) {
    super(name, keys, sparse);
    this.fields = keys.stream().map(IndexKey::getKey).toList();
    this.order = order;
    this.entries = entries;
    this.state = state;
  }

  static SortedKeyType order(List<IndexKey> keys) {
    return new SortedKeyType(keys.stream().map(IndexKey::isAscending).toList());
  }

  List<String> fields() {
    return fields;
  }

  SortedKeyType order() {
    return order;
  }

  boolean sparse() {
    return isSparse();
  }

  boolean multikey(int field) {
    return state.multikey(field);
  }

  /** Whether it may serve queries: false for good once it failed to hold a document. */
  boolean usable() {
    return !state.unusable();
  }

  Iterator<Map.Entry<KeyValue, P>> range(KeyValue from, KeyValue to, boolean reverse) {
    return entries.range(from, to, reverse);
  }

  /**
   * Fills the index from the collection's documents, from scratch (a build cut short left some keys), and calls
   * {@code checkpoint} every {@code every} documents so that a large build can be committed as it goes.
   */
  void build(Iterator<Map.Entry<P, Document>> documents, Runnable checkpoint, int every) {
    entries.clear();
    int count = 0;
    while (documents.hasNext()) {
      Map.Entry<P, Document> document = documents.next();
      add(document.getValue(), document.getKey(), null);
      if (++count % every == 0) {
        checkpoint.run();
      }
    }
    state.built();
  }

  /**
   * The store fills an index that says it is empty from every document when it adds it to a collection, at each
   * start too. An index whose keys are in the file says so only until it has been built: asked while not built, it
   * clears what a build cut short may have left, counts as built and answers true, and the store fills it right after
   * in the same command (so the same commit stores the keys and the state).
   */
  @Override
  public boolean isEmpty() {
    if (state.isBuilt()) {
      return false;
    }
    entries.clear();
    state.built();
    return true;
  }

  /** The keys of a document (see {@link IndexKeys}); a field found to hold an array is marked multikey. */
  private List<KeyValue> keys(Document document) {
    return IndexKeys.of(document, fields, isSparse(), field -> {
      if (!state.multikey(field)) {
        state.markMultikey(field);
      }
    });
  }

  /** A document the index cannot hold: it stops serving queries for good, rather than answer without it. */
  private void giveUp(Document document, RuntimeException e) {
    if (!state.unusable()) {
      log.warn("index {} cannot hold document {} ({}); queries stop using it", getName(), document.get("_id"),
          e.toString());
    }
    state.markUnusable();
  }

  @Override
  public P getPosition(Document document) {
    return null; // the _id index finds a document's position; this one only orders and narrows queries
  }

  @Override
  public void checkAdd(Document document, MongoCollection<P> collection) {
    // not unique: nothing to refuse
  }

  @Override
  public void add(Document document, P position, MongoCollection<P> collection) {
    if (state.unusable()) {
      return;
    }
    try {
      for (KeyValue key : keys(document)) {
        entries.put(key, position);
      }
    } catch (RuntimeException e) {
      giveUp(document, e);
    }
  }

  @Override
  public P remove(Document document) {
    if (state.unusable()) {
      return null;
    }
    P position = null;
    try {
      for (KeyValue key : keys(document)) {
        P removed = entries.remove(key);
        if (removed != null) {
          position = removed;
        }
      }
    } catch (RuntimeException e) {
      giveUp(document, e);
    }
    return position;
  }

  @Override
  public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<P> collection) {
    // not unique: nothing to refuse
  }

  @Override
  public void updateInPlace(Document oldDocument, Document newDocument, P position, MongoCollection<P> collection) {
    if (state.unusable()) {
      return;
    }
    try {
      List<KeyValue> before = keys(oldDocument);
      List<KeyValue> after = keys(newDocument);
      if (before.equals(after)) {
        return; // the usual update: no indexed field changed
      }
      Set<KeyValue> kept = new LinkedHashSet<>(after);
      for (KeyValue key : before) {
        if (!kept.contains(key)) {
          entries.remove(key);
        }
      }
      Set<KeyValue> had = new LinkedHashSet<>(before);
      for (KeyValue key : after) {
        if (!had.contains(key)) {
          entries.put(key, position);
        }
      }
    } catch (RuntimeException e) {
      giveUp(newDocument, e);
    }
  }

  /** The planner serves queries (see {@link QueryPlanner}); the store's own index choice never picks this index. */
  @Override
  public boolean canHandle(Document query) {
    return false;
  }

  @Override
  public Iterable<P> getPositions(Document query) {
    throw new UnsupportedOperationException("the index " + getName() + " is read through QueryPlanner");
  }

  @Override
  public long getCount() {
    return entries.size();
  }

  @Override
  public long getDataSize() {
    return getCount() * 64; // an estimate: the store reports it in collection statistics only
  }

  @Override
  public boolean isUnique() {
    return false;
  }

  @Override
  public void drop() {
    entries.clear();
    state.dropped();
  }
}
