package dev.lipa.store;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.MaxKey;
import de.bwaldvogel.mongo.bson.MinKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A non-unique index for the embedded store, which otherwise ignores them ("adding secondary index ... is not yet
 * implemented") and answers every query they would serve by scanning the whole collection under its lock: the sweeps
 * of every service ({@code outboxPendingSince < t}, {@code status = PENDING and createdAt < t}, the dispatcher's due
 * deliveries, the ledger's repair) ran such a scan every second or so, and the scans grew with the collection.
 *
 * <p>It indexes the values of the index's <b>first key</b> only (a compound index serves the queries on its prefix's
 * first field): a sorted map from value (ordered by the store's own {@link ValueComparator}, so 1, 1L and 1.0 are one
 * key) to the documents holding it, by {@code _id}. Array values are indexed element by element, as MongoDB's multikey
 * indexes are; documents without the field (or with null) are not indexed, so the index is sparse. Should a value be
 * one the comparator cannot order, the index stops serving queries for good (logged) rather than answer without it.
 *
 * <p>It serves a query that names the first key, at top level or inside a top-level {@code $and}, with an equality
 * (a plain value or {@code $eq}), an {@code $in}, or one bound of a range ({@code $gt}, {@code $gte}, {@code $lt},
 * {@code $lte}; only one, because with arrays each bound may be met by a different element). What it returns is a
 * superset of the answer: the store applies the whole query to every document it finds (its matching step runs after
 * every index lookup), so other conditions, other operators on the same field and type brackets are all still
 * honoured. It never serves null, {@code $exists}, {@code $ne}, {@code $nin}, regular expressions or embedded-document
 * equality: those can match documents it does not hold, and go to the collection scan as before.
 *
 * <p>The store asks a collection's indexes in the order it lists them and uses the first that can serve a query. A
 * secondary index listed before a unique one could therefore take a query the unique index would answer with one
 * document: still correct, but a bucket instead of a lookup. For {@code _id} this index steps aside itself (see
 * {@link #canHandle}): a reopened H2 file lists the {@code _id} index after others. For other unique indexes, e.g.
 * {@code {referenceId, organisationId}} against an index on {@code organisationId}, every store of the platform
 * creates its unique indexes first; keep it so.
 *
 * <p>It lives in memory, on both backends: the store fills it from the collection when it opens the index (at start,
 * and when the index is created), and keeps it current on every insert, update and delete under the collection's
 * lock.
 */
final class SecondaryIndex<P> extends Index<P> {

  /** The range operators, in the order one is chosen when a condition has several. */
  private static final List<String> RANGE = List.of("$gte", "$gt", "$lte", "$lt");

  private static final Logger log = LoggerFactory.getLogger(SecondaryIndex.class);
  private static final String ID = "_id";
  private static final ValueComparator ORDER = ValueComparator.ascWithoutListHandling();

  private final String field;
  /** value of the first key -> (the document's _id -> its position). */
  private final NavigableMap<Object, Map<Object, P>> entries = new TreeMap<>(ORDER);
  private long count;
  /**
   * Set for good when a document's value could not be ordered (a type the store's comparator does not sort): the index
   * no longer holds every document, so it serves no query again and the collection scan answers them, as before.
   */
  private boolean incomplete;

  SecondaryIndex(String name, List<IndexKey> keys) {
    super(name, keys, true);
    this.field = keys.getFirst().getKey();
  }

  @Override
  public boolean canHandle(Document query) {
    if (incomplete) {
      return false;
    }
    Map<String, Object> conditions = PinnedKeyIndex.conditions(query);
    return !pinsId(conditions) && selection(conditions.get(field)) != null;
  }

  /**
   * Whether the query names its documents by {@code _id} (a value, or {@code $in}): the collection's {@code _id} index
   * then answers it with those documents alone, where this index would give its whole bucket. The store takes the
   * first index that says it can serve a query, and which comes first is not ours to decide (a reopened H2 file lists a
   * collection's indexes in an order of its own), so this index steps aside.
   */
  private static boolean pinsId(Map<String, Object> conditions) {
    if (!conditions.containsKey(ID)) {
      return false;
    }
    Object id = conditions.get(ID);
    return !(id instanceof Document operators) || operators.size() == 1 && operators.get("$in") instanceof Collection<?>;
  }

  @Override
  public Iterable<P> getPositions(Document query) {
    Selection selection = selection(PinnedKeyIndex.conditions(query).get(field));
    if (selection == null) {
      throw new IllegalStateException("the index " + getName() + " cannot serve " + query);
    }
    Collection<Map<Object, P>> buckets;
    try {
      buckets = buckets(selection);
    } catch (RuntimeException e) {
      // a query value the store's comparator cannot order against the keys: every document the index holds is a
      // superset of the answer (a document without the field meets no equality, $in or range on it)
      buckets = entries.values();
    }
    // a copy: the collection changes after the lookup; one position once (arrays put a document in many buckets)
    Set<P> positions = new LinkedHashSet<>();
    buckets.forEach(bucket -> positions.addAll(bucket.values()));
    return naturalOrder(positions);
  }

  private Collection<Map<Object, P>> buckets(Selection selection) {
    Collection<Map<Object, P>> buckets;
    if (selection.values() != null) {
      buckets = new ArrayList<>();
      for (Object value : selection.values()) {
        Map<Object, P> bucket = entries.get(value);
        if (bucket != null) {
          buckets.add(bucket);
        }
      }
    } else if (selection.lower()) {
      buckets = entries.tailMap(selection.bound(), selection.inclusive()).values();
    } else {
      buckets = entries.headMap(selection.bound(), selection.inclusive()).values();
    }
    return new ArrayList<>(buckets); // sub-map views compare lazily: walk them here
  }

  /** Positions in insertion order where the backend's positions say it (the memory backend's are ascending ints). */
  private static <P> List<P> naturalOrder(Set<P> positions) {
    List<P> ordered = new ArrayList<>(positions);
    if (!ordered.isEmpty() && ordered.stream().allMatch(p -> p instanceof Integer)) {
      ordered.sort((a, b) -> Integer.compare((Integer) a, (Integer) b));
    }
    return ordered;
  }

  /** What a condition on the field selects, or null when this index cannot answer it with a superset. */
  private static Selection selection(Object condition) {
    if (indexable(condition)) {
      return new Selection(List.of(condition), null, false, false);
    }
    if (!(condition instanceof Document operators) || operators.isEmpty()
        || !operators.keySet().stream().allMatch(k -> k.startsWith("$"))) {
      return null;
    }
    if (operators.containsKey("$eq")) {
      Object value = operators.get("$eq");
      return indexable(value) ? new Selection(List.of(value), null, false, false) : null;
    }
    if (operators.get("$in") instanceof Collection<?> values) {
      return values.stream().allMatch(SecondaryIndex::indexable) ? new Selection(List.copyOf(values), null, false,
          false) : null;
    }
    for (String operator : RANGE) {
      Object bound = operators.get(operator);
      if (indexable(bound)) {
        return new Selection(null, bound, operator.startsWith("$g"), operator.endsWith("e"));
      }
    }
    return null;
  }

  /** A value the index holds as a key: not null, not a list, not an embedded document, not a regular expression. */
  private static boolean indexable(Object value) {
    return value != null && !(value instanceof Document) && !(value instanceof Collection<?>)
        && !(value instanceof Pattern) && !(value instanceof BsonRegularExpression) && !(value instanceof MinKey)
        && !(value instanceof MaxKey);
  }

  /** The field's values in the document: each element of an array, along every array on the path. */
  private List<Object> values(Document document) {
    List<Object> values = new ArrayList<>(1);
    collect(document, field.split("\\."), 0, values);
    return values;
  }

  private static void collect(Object node, String[] path, int depth, List<Object> values) {
    if (node instanceof Collection<?> elements) {
      for (Object element : elements) {
        collect(element, path, depth, values);
      }
    } else if (depth == path.length) {
      if (node != null) {
        values.add(node); // every value the field holds, so that whatever a served query matches is found
      }
    } else if (node instanceof Document document) {
      collect(document.get(path[depth]), path, depth + 1, values);
    }
  }

  @Override
  public P getPosition(Document document) {
    return null; // the _id index finds a document's position; this one only narrows queries
  }

  @Override
  public void checkAdd(Document document, MongoCollection<P> collection) {
    // not unique: nothing to refuse
  }

  @Override
  public void add(Document document, P position, MongoCollection<P> collection) {
    Object id = document.get("_id");
    for (Object value : values(document)) {
      try {
        if (entries.computeIfAbsent(value, v -> new HashMap<>()).put(id, position) == null) {
          count++;
        }
      } catch (RuntimeException e) {
        if (!incomplete) {
          log.warn("index {} holds a value it cannot order ({}); queries on {} scan the collection from now on",
              getName(), e.toString(), field);
        }
        incomplete = true;
      }
    }
  }

  @Override
  public P remove(Document document) {
    Object id = document.get("_id");
    P position = null;
    for (Object value : values(document)) {
      Map<Object, P> bucket = entries.get(value);
      P removed = bucket == null ? null : bucket.remove(id);
      if (removed != null) {
        count--;
        position = removed;
        if (bucket.isEmpty()) {
          entries.remove(value);
        }
      }
    }
    return position;
  }

  @Override
  public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<P> collection) {
    // not unique: nothing to refuse
  }

  @Override
  public void updateInPlace(Document oldDocument, Document newDocument, P position, MongoCollection<P> collection) {
    List<Object> before = values(oldDocument);
    List<Object> after = values(newDocument);
    if (before.equals(after) && Objects.equals(oldDocument.get("_id"), newDocument.get("_id"))) {
      return; // the usual update: the indexed field did not change
    }
    remove(oldDocument);
    add(newDocument, position, collection);
  }

  @Override
  public long getCount() {
    return count;
  }

  @Override
  public long getDataSize() {
    return count * 64; // an estimate: the store reports it in collection statistics only
  }

  @Override
  public boolean isUnique() {
    return false;
  }

  @Override
  public void drop() {
    entries.clear();
    count = 0;
  }

  /** Either the equal values, or one bound (lower or upper, inclusive or not). */
  private record Selection(List<Object> values, Object bound, boolean lower, boolean inclusive) {
  }
}
