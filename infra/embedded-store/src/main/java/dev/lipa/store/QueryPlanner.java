package dev.lipa.store;

import de.bwaldvogel.mongo.backend.DocumentComparator;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import dev.lipa.store.QueryConditions.Bounds;
import dev.lipa.store.QueryConditions.SortField;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Chooses how the embedded store reads a query through a {@link SortedIndex}: which index, which key ranges, in which
 * direction, and how much of the requested order the index already gives, so that a sorted, limited query reads the
 * documents it returns plus a bounded margin instead of every document that matches and a sort. What the query asks is
 * read by {@link QueryConditions}; a plan's ranges are read by a {@link PlanReader}, its ties sorted by a
 * {@link TieSorter}.
 *
 * <p>An index serves a query when the query pins a prefix of its fields with equalities (a value, {@code $eq}, or an
 * {@code $in} of a few values) and perhaps bounds the next field ({@code $gt}, {@code $gte}, {@code $lt},
 * {@code $lte}); conditions count when they are top-level fields or clauses of a top-level {@code $and} (the driver
 * writes {@code Filters.and} as one), at any depth. It gives the order when the requested sort, once the pinned fields
 * are left out, starts with the index's next fields (the document's {@code _id} counting as the last one), all in the
 * index's directions or all reversed. When only the first sort fields are given, documents that tie on them are sorted
 * among themselves by the whole sort before they are returned; when none is, everything matched is sorted, as without
 * the index. Every document read is matched against the whole query by the store, so an index only has to select a
 * superset in the right order: conditions on other fields, other operators, type brackets and multikey subtleties
 * stay the store's matcher's business.
 *
 * <p>It never serves what a key range cannot select exactly as a superset: null equality, {@code $exists},
 * {@code $ne}, {@code $nin}, regular expressions, embedded-document or array equality, and on a multikey field a
 * range with both bounds (each may be met by a different element) or a sort. A query a unique index can answer
 * (a lookup by {@code _id} and the like) is left to that index; the plan with the most pinned fields wins, then one
 * with a range, then the one that gives the most of the order.
 */
final class QueryPlanner {

  /** More key ranges than this ({@code $in} on several fields multiplies them) and the rest are left unpinned. */
  private static final int MAX_RANGES = 64;
  private static final String ID = "_id";

  private QueryPlanner() {
  }

  /**
   * Identity marks the query that matches everything: the planner has matched the documents already, and the store's
   * last pass over them (skip, limit, projection) must neither match nor count them again.
   */
  static final Document EVERYTHING = new Document();

  /**
   * Answers a query through the plan for it, or the store's own way ({@code unplanned}: a unique index's lookup, or a
   * scan) when there is none: the documents that {@code matches} the query, in the plan's order, sorted further by the
   * requested order only when the plan gives none of it, then handed to the store's last pass ({@code finish}: skip,
   * limit, projection, first batch, with {@link #EVERYTHING} as its query). The collection lends what is protected
   * there.
   */
  static <P, R> R query(List<Index<P>> indexes, Document query, Document orderBy, Function<P, Document> load,
      BiPredicate<Document, Document> matches, Supplier<R> unplanned,
      BiFunction<Stream<Document>, Comparator<Document>, R> finish) {
    Plan<P> plan = plan(indexes, query, orderBy);
    if (plan == null) {
      return unplanned.get();
    }
    // a plan means an order by fields or none at all ($natural is the store's own)
    Comparator<Document> sort = orderBy == null || orderBy.isEmpty() ? null : new DocumentComparator(orderBy);
    return finish.apply(plan.documents(load, document -> matches.test(document, query), sort),
        plan.ordered() ? null : sort);
  }

  /**
   * How to read the query through one of the collection's sorted indexes, or null to leave it to the store (a unique
   * index that pins the query, or no index that helps: the collection is scanned).
   */
  static <P> Plan<P> plan(List<Index<P>> indexes, Document query, Document orderBy) {
    List<SortField> sort = QueryConditions.sortFields(orderBy);
    if (sort == null) {
      return null; // $natural: the store's own order
    }
    Map<String, List<Object>> conditions = QueryConditions.of(query);
    Plan<P> best = null;
    for (Index<P> index : indexes) {
      if (!(index instanceof SortedIndex<P> sorted)) {
        if (index.canHandle(query)) {
          return null; // a unique index pins the query: a lookup beats any range
        }
        continue;
      }
      Plan<P> plan = plan(sorted, conditions, sort);
      if (plan != null && (best == null || plan.beats(best))) {
        best = plan;
      }
    }
    return best;
  }

  private static <P> Plan<P> plan(SortedIndex<P> index, Map<String, List<Object>> conditions, List<SortField> sort) {
    if (!index.usable()) {
      return null;
    }
    List<String> fields = index.fields();
    SortedKeyType order = index.order();
    List<List<Object>> prefixes = new ArrayList<>();
    prefixes.add(new ArrayList<>());
    Set<String> constant = new HashSet<>();
    int pinned = 0;
    Bounds bounds = null;
    for (int i = 0; i < fields.size(); i++) {
      List<Object> equal = QueryConditions.equality(conditions.get(fields.get(i)));
      if (equal != null && prefixes.size() * equal.size() <= MAX_RANGES) {
        List<List<Object>> next = new ArrayList<>();
        for (List<Object> prefix : prefixes) {
          for (Object value : equal) {
            List<Object> extended = new ArrayList<>(prefix);
            extended.add(value);
            next.add(extended);
          }
        }
        prefixes = next;
        if (equal.size() == 1) {
          constant.add(fields.get(i));
        }
        pinned++;
        continue;
      }
      bounds = QueryConditions.bounds(conditions.get(fields.get(i)), index.multikey(i));
      break;
    }
    if (index.sparse() && pinned == 0 && bounds == null) {
      return null; // documents without the fields are not in it: only a condition on them excludes those
    }
    // the order: the sort without the fields pinned to one value, against the index's next fields and then the _id
    List<SortField> wanted = sort.stream().filter(field -> !constant.contains(field.name())).toList();
    int given = 0;
    Boolean reverse = null;
    if (prefixes.size() == 1) {
      for (int j = 0; j < wanted.size(); j++) {
        int position = pinned + j;
        if (position > fields.size()) {
          break;
        }
        String field = position == fields.size() ? ID : fields.get(position);
        if (!field.equals(wanted.get(j).name()) || position < fields.size() && index.multikey(position)) {
          break;
        }
        boolean opposite = wanted.get(j).descending() != order.descending(position);
        if (reverse != null && reverse != opposite) {
          break;
        }
        reverse = opposite;
        given++;
      }
    }
    if (pinned == 0 && bounds == null && given == 0) {
      return null; // neither narrows nor orders: no better than a scan
    }
    List<KeyValue[]> ranges = new ArrayList<>(prefixes.size());
    for (List<Object> prefix : prefixes) {
      ranges.add(range(prefix, bounds, pinned < fields.size() && order.descending(pinned)));
    }
    return new Plan<>(index, ranges, reverse != null && reverse, pinned, bounds != null, given, wanted.size());
  }

  /** The keys from the first to the last one that can start with the prefix and meet the bounds, in stored order. */
  private static KeyValue[] range(List<Object> prefix, Bounds bounds, boolean descending) {
    List<Object> from = new ArrayList<>(prefix);
    List<Object> to = new ArrayList<>(prefix);
    if (bounds == null) {
      from.add(SortedKeyType.Bound.LOW);
      to.add(SortedKeyType.Bound.HIGH);
    } else {
      // in stored order a descending field starts at its upper bound
      Object first = descending ? bounds.upper() : bounds.lower();
      boolean firstInclusive = descending ? bounds.upperInclusive() : bounds.lowerInclusive();
      Object last = descending ? bounds.lower() : bounds.upper();
      boolean lastInclusive = descending ? bounds.lowerInclusive() : bounds.upperInclusive();
      if (first == null) {
        from.add(SortedKeyType.Bound.LOW);
      } else {
        from.add(first);
        from.add(firstInclusive ? SortedKeyType.Bound.LOW : SortedKeyType.Bound.HIGH);
      }
      if (last == null) {
        to.add(SortedKeyType.Bound.HIGH);
      } else {
        to.add(last);
        to.add(lastInclusive ? SortedKeyType.Bound.HIGH : SortedKeyType.Bound.LOW);
      }
    }
    return new KeyValue[] {new KeyValue(from), new KeyValue(to)};
  }

  /**
   * A way to read a query: key ranges of one index, read in order (or reversed), the first {@code given} of the
   * {@code wanted} sort fields given by that order.
   */
  record Plan<P>(SortedIndex<P> index, List<KeyValue[]> ranges, boolean reverse, int pinned, boolean bounded,
      int given, int wanted) {

    /**
     * Whether {@link #documents} come in the requested order: the index gives all of it, or a first part of it and
     * the ties are sorted as they are read; otherwise what the plan reads must still be sorted whole.
     */
    boolean ordered() {
      return given > 0 || wanted == 0;
    }

    boolean beats(Plan<?> other) {
      if (pinned != other.pinned) {
        return pinned > other.pinned;
      }
      if (bounded != other.bounded) {
        return bounded;
      }
      return given > other.given;
    }

    /**
     * The documents the plan reads that match the query, in the index's order; those that tie on the fields the index
     * orders by are sorted among themselves by {@code sort} (the whole requested order) when the index gives only part
     * of it. Lazy: a limit stops the reading.
     */
    Stream<Document> documents(Function<P, Document> load, Predicate<Document> matches, Comparator<Document> sort) {
      PlanReader<P> reader = new PlanReader<>(index, ranges, reverse, load, matches);
      Iterator<Document> read = given > 0 && given < wanted
          ? new TieSorter(reader, sort, index.order(), pinned, given) : reader;
      return StreamSupport.stream(Spliterators.spliteratorUnknownSize(read, Spliterator.ORDERED), false);
    }
  }
}
