package dev.lipa.store;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.KeyConstraintError;
import java.util.HashMap;
import java.util.Map;

/**
 * A unique index of the embedded store that also serves queries naming more fields than its keys.
 *
 * <p>mongo-java-server uses an index only when a query's top-level fields are exactly the index's keys: a lookup such
 * as {@code {_id: x, organisationId: y, status: "PENDING"}} (every tenant-scoped read and compare-and-set update of the
 * platform) scanned the whole collection, under the collection's lock, so each write cost time in proportion to the
 * collection's size (measured: 7–8 ms per lookup at 20,000 documents against 0.3 ms by {@code _id} alone). A real
 * MongoDB answers these from the {@code _id} index. Top-level fields of a query are all required to match, so the
 * documents the index finds for the query's conditions on its keys alone are a superset of the answer (so are those
 * of any clause of a top-level {@code $and}); the store then applies the
 * whole query to each of them (its matching step runs after every index lookup). So this wrapper answers for the
 * narrowed query whenever the index can serve that, and otherwise behaves exactly as the index it wraps.
 */
final class PinnedKeyIndex<P> extends de.bwaldvogel.mongo.backend.Index<P> {

  private final de.bwaldvogel.mongo.backend.Index<P> index;
  /** On H2, whether the index's map in the file has been filled once; null on the memory backend. */
  private final IndexStates.State state;

  PinnedKeyIndex(String name, de.bwaldvogel.mongo.backend.Index<P> index, boolean sparse, IndexStates.State state) {
    super(name, index.getKeys(), sparse);
    this.index = index;
    this.state = state;
  }

  /**
   * The store fills an index that says it is empty from every document when it adds it to a collection, and it adds
   * every index at each start: an empty unique index (a sparse one whose field no document has, e.g. the idempotency
   * keys of a collection that never got one) made each start read the whole collection. On H2 the index says so only
   * until it has been filled once: one that has keys was filled before (a file of the older format), one without is
   * filled right after this call, in the same command (so the same commit stores the keys and the state).
   */
  @Override
  public boolean isEmpty() {
    if (state == null) {
      return index.isEmpty();
    }
    if (state.isBuilt()) {
      return false;
    }
    boolean empty = index.isEmpty();
    state.built();
    return empty;
  }

  @Override
  public boolean canHandle(Document query) {
    return index.canHandle(query) || narrowed(query) != null;
  }

  @Override
  public Iterable<P> getPositions(Document query) {
    if (index.canHandle(query)) {
      return index.getPositions(query);
    }
    Document narrowed = narrowed(query);
    if (narrowed == null) {
      throw new IllegalStateException("the index " + getName() + " cannot serve " + query);
    }
    return index.getPositions(narrowed);
  }

  /**
   * The query's conditions on this index's keys alone, when the index can serve them; otherwise null. Conditions are
   * taken from the query's top-level fields and from the clauses of a top-level {@code $and} (the MongoDB driver writes
   * {@code Filters.and(...)} as one), at any depth of nested {@code $and}s: each of them must hold.
   */
  private Document narrowed(Document query) {
    Map<String, Object> conditions = conditions(query);
    if (!conditions.keySet().containsAll(keySet())) {
      return null;
    }
    Document narrowed = new Document();
    for (String key : keys()) {
      narrowed.put(key, conditions.get(key));
    }
    return index.canHandle(narrowed) ? narrowed : null;
  }

  /**
   * The conditions every answer to the query meets, by field: the query's top-level fields and those of the clauses
   * of a top-level {@code $and} (the MongoDB driver writes {@code Filters.and(...)} as one), at any depth of nested
   * {@code $and}s. The first condition found on a field wins; any of them alone selects a superset of the answer.
   * Other operators ({@code $or}, {@code $nor}, {@code $expr}) offer no condition every answer meets and are skipped.
   */
  static Map<String, Object> conditions(Document query) {
    Map<String, Object> conditions = new HashMap<>();
    QueryConditions.of(query).forEach((field, found) -> conditions.put(field, found.getFirst()));
    return conditions;
  }

  @Override
  public P getPosition(Document document) {
    return index.getPosition(document);
  }

  @Override
  public void checkAdd(Document document, MongoCollection<P> collection) {
    index.checkAdd(document, collection);
  }

  @Override
  public void add(Document document, P position, MongoCollection<P> collection) {
    index.add(document, position, collection);
  }

  @Override
  public P remove(Document document) {
    return index.remove(document);
  }

  @Override
  public long getCount() {
    return index.getCount();
  }

  @Override
  public long getDataSize() {
    return index.getDataSize();
  }

  @Override
  public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<P> collection) {
    index.checkUpdate(oldDocument, newDocument, collection);
  }

  @Override
  public void updateInPlace(Document oldDocument, Document newDocument, P position, MongoCollection<P> collection)
      throws KeyConstraintError {
    index.updateInPlace(oldDocument, newDocument, position, collection);
  }

  @Override
  public boolean isUnique() {
    return index.isUnique();
  }

  @Override
  public void drop() {
    index.drop();
  }
}
