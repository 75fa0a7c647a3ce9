package dev.lipa.store;

import de.bwaldvogel.mongo.backend.KeyValue;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

/**
 * Where a {@link SortedIndex} keeps its keys, in {@link SortedKeyType}'s order, each with the position of its
 * document: a {@code TreeMap} on the memory backend, an H2 map in the store's file on the H2 backend (written in the
 * same commit as the documents, read page by page, never loaded whole).
 */
interface IndexEntries<P> {

  void put(KeyValue key, P position);

  /** Removes the key; returns its position, or null when it was not there. */
  P remove(KeyValue key);

  /** The entries from {@code from} to {@code to}, both inclusive (bounds are padded keys, never stored ones). */
  Iterator<Map.Entry<KeyValue, P>> range(KeyValue from, KeyValue to, boolean reverse);

  long size();

  void clear();

  static <P> IndexEntries<P> inMemory(SortedKeyType order) {
    return new InMemory<>(order);
  }

  /**
   * Entries in an H2 map whose values are only a marker: on H2 a document's position is its {@code _id}, the last
   * value of every key.
   */
  static IndexEntries<Object> inFile(MVMap<KeyValue, Boolean> map) {
    return new InFile(map);
  }

  final class InMemory<P> implements IndexEntries<P> {

    private final NavigableMap<KeyValue, P> entries;

    private InMemory(SortedKeyType order) {
      this.entries = new TreeMap<>(order);
    }

    @Override
    public void put(KeyValue key, P position) {
      entries.put(key, position);
    }

    @Override
    public P remove(KeyValue key) {
      return entries.remove(key);
    }

    @Override
    public Iterator<Map.Entry<KeyValue, P>> range(KeyValue from, KeyValue to, boolean reverse) {
      NavigableMap<KeyValue, P> range = entries.subMap(from, true, to, true);
      return (reverse ? range.descendingMap() : range).entrySet().iterator();
    }

    @Override
    public long size() {
      return entries.size();
    }

    @Override
    public void clear() {
      entries.clear();
    }
  }

  final class InFile implements IndexEntries<Object> {

    private final MVMap<KeyValue, Boolean> map;

    private InFile(MVMap<KeyValue, Boolean> map) {
      this.map = map;
    }

    private static Object position(KeyValue key) {
      return key.get(key.size() - 1);
    }

    @Override
    public void put(KeyValue key, Object position) {
      map.put(key, Boolean.TRUE);
    }

    @Override
    public Object remove(KeyValue key) {
      return map.remove(key) == null ? null : position(key);
    }

    @Override
    public Iterator<Map.Entry<KeyValue, Object>> range(KeyValue from, KeyValue to, boolean reverse) {
      Cursor<KeyValue, Boolean> cursor = reverse ? map.cursor(to, from, true) : map.cursor(from, to, false);
      Function<KeyValue, Map.Entry<KeyValue, Object>> entry = key -> Map.entry(key, position(key));
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return cursor.hasNext();
        }

        @Override
        public Map.Entry<KeyValue, Object> next() {
          return entry.apply(cursor.next());
        }
      };
    }

    @Override
    public long size() {
      return map.sizeAsLong();
    }

    @Override
    public void clear() {
      map.clear();
    }
  }
}
