package dev.lipa.store;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Reads a plan's key ranges of a {@link SortedIndex} in key order (or reversed) and returns the documents there that
 * match the query, each once, lazily: a limit stops the reading.
 */
final class PlanReader<P> implements Iterator<Document> {

  private final SortedIndex<P> index;
  private final List<KeyValue[]> ranges;
  private final boolean reverse;
  private final Function<P, Document> load;
  private final Predicate<Document> matches;
  private final Set<P> seen = new HashSet<>();
  private final boolean once;
  private int range;
  private Iterator<Map.Entry<KeyValue, P>> entries;
  private Document next;
  private KeyValue nextKey;
  /** The key of the document {@link #next()} returned last, for the {@link TieSorter}. */
  private KeyValue lastKey;

  PlanReader(SortedIndex<P> index, List<KeyValue[]> ranges, boolean reverse, Function<P, Document> load,
      Predicate<Document> matches) {
    this.index = index;
    this.ranges = ranges;
    this.reverse = reverse;
    this.load = load;
    this.matches = matches;
    // one key per document unless a field held an array or there are several ranges
    boolean multikey = false;
    for (int i = 0; i < index.fields().size(); i++) {
      multikey |= index.multikey(i);
    }
    this.once = multikey || ranges.size() > 1;
  }

  @Override
  public boolean hasNext() {
    while (next == null) {
      if (entries == null || !entries.hasNext()) {
        if (range == ranges.size()) {
          return false;
        }
        KeyValue[] bounds = ranges.get(range++);
        entries = index.range(bounds[0], bounds[1], reverse);
        continue;
      }
      Map.Entry<KeyValue, P> entry = entries.next();
      P position = entry.getValue();
      if (once && !seen.add(position)) {
        continue;
      }
      Document document = load.apply(position);
      if (document != null && matches.test(document)) {
        next = document;
        nextKey = entry.getKey();
      }
    }
    return true;
  }

  @Override
  public Document next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Document document = next;
    lastKey = nextKey;
    next = null;
    return document;
  }

  /** The index key under which the document {@link #next()} returned last was found. */
  KeyValue lastKey() {
    return lastKey;
  }
}
