package dev.lipa.store;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.ValueComparator;
import java.nio.ByteBuffer;
import java.util.Comparator;
import java.util.List;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * The keys of a {@link SortedIndex} and their order: the indexed fields' values of one document, then its
 * {@code _id}, ordered field by field the way MongoDB sorts them (the store's own {@link ValueComparator}, so 1, 1L and
 * 1.0 are one value, and null, which stands for a missing field, comes first), each field in the direction the index
 * declares, the {@code _id} ascending. One type serves both backends: the memory backend's index is a
 * {@code TreeMap} in this order, the H2 backend's an H2 map of this type, written as a BSON document of the values.
 *
 * <p>Range bounds are keys too, padded with {@link Bound#LOW} or {@link Bound#HIGH}: below or above every value in
 * the stored order whatever the field's direction, so a bound never equals a stored key and "every key that starts
 * with these values" is the range from the prefix padded low to the prefix padded high.
 */
final class SortedKeyType extends BasicDataType<KeyValue> implements Comparator<KeyValue> {

  private static final ValueComparator VALUES = ValueComparator.ascWithoutListHandling();

  /** Padding for range bounds, never stored. */
  enum Bound {
    LOW, HIGH
  }

  /** Per position of a key: true where the order is descending (the last position, the _id, is ascending). */
  private final boolean[] descending;

  SortedKeyType(List<Boolean> ascending) {
    this.descending = new boolean[ascending.size() + 1];
    for (int i = 0; i < ascending.size(); i++) {
      descending[i] = !ascending.get(i);
    }
  }

  /** How many values a stored key has: the indexed fields and the _id. */
  int width() {
    return descending.length;
  }

  boolean descending(int field) {
    return descending[field];
  }

  @Override
  public int compare(KeyValue a, KeyValue b) {
    int common = Math.min(a.size(), b.size());
    for (int i = 0; i < common; i++) {
      int order = compareAt(i, a.get(i), b.get(i));
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /** The order of two values at one position of a key. */
  int compareAt(int position, Object a, Object b) {
    if (a instanceof Bound || b instanceof Bound) {
      int rankA = a == Bound.LOW ? -1 : a == Bound.HIGH ? 1 : 0;
      int rankB = b == Bound.LOW ? -1 : b == Bound.HIGH ? 1 : 0;
      return Integer.compare(rankA, rankB);
    }
    int order = VALUES.compare(a, b);
    return descending[position] ? -order : order;
  }

  /** A stored key as a BSON document of its values, as the unique indexes' keys are ({@link KeyValueType}). */
  @Override
  public void write(WriteBuffer buffer, KeyValue key) {
    KeyValueType.writeValues(buffer, key);
  }

  @Override
  public KeyValue read(ByteBuffer buffer) {
    return KeyValueType.readValues(buffer);
  }

  @Override
  public int getMemory(KeyValue key) {
    return KeyValueType.memory(key);
  }

  @Override
  public KeyValue[] createStorage(int size) {
    return new KeyValue[size];
  }
}
