package dev.lipa.store;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * The keys of the on-disk store's unique indexes ({@link KeyValue}: the indexed fields' values of one document).
 * Left to H2's generic type, a key is neither a type H2 knows nor {@link Comparable}, so H2 orders two keys by Java
 * serialising both and comparing the bytes, on every comparison of every lookup: 44% of the store's CPU on H2 in a
 * profile of the platform. This type writes a key as a BSON document of its values and orders keys value by value.
 *
 * <p>The order only has to be total and to agree with {@link KeyValue#equals} (the map finds a key by comparing):
 * values of different classes are ordered by class name, values of one {@link Comparable} class by {@code compareTo}
 * unless that calls two unequal values equal (then as below), and every other pair by their BSON bytes, which equal
 * values share and unequal ones do not.
 */
final class KeyValueType extends BasicDataType<KeyValue> {

  static final KeyValueType INSTANCE = new KeyValueType();

  private KeyValueType() {
  }

  @Override
  public int compare(KeyValue a, KeyValue b) {
    int common = Math.min(a.size(), b.size());
    for (int i = 0; i < common; i++) {
      int order = compareValues(a.get(i), b.get(i));
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compareValues(Object a, Object b) {
    if (a == b) {
      return 0;
    }
    if (a == null || b == null) {
      return a == null ? -1 : 1;
    }
    if (a.getClass() != b.getClass()) {
      return a.getClass().getName().compareTo(b.getClass().getName());
    }
    if (a instanceof Comparable comparable) {
      int order = comparable.compareTo(b);
      if (order != 0 || a.equals(b)) {
        return order;
      }
    }
    return Arrays.compare(bson(new Document("v", a)), bson(new Document("v", b)));
  }

  /** As a BSON document of its values ({"0": ..., "1": ...}), written and read as the documents are. */
  @Override
  public void write(WriteBuffer buffer, KeyValue key) {
    writeValues(buffer, key);
  }

  @Override
  public KeyValue read(ByteBuffer buffer) {
    return readValues(buffer);
  }

  @Override
  public int getMemory(KeyValue key) {
    return memory(key);
  }

  /**
   * Writes a key as a BSON document of its values ({"0": ..., "1": ...}); shared with {@link SortedKeyType}. The bytes
   * are those {@code BsonEncoder.encodeDocument} writes for that document (the file's format), encoded here without
   * making the document: every key of an index page is written each time the page is saved ({@link BsonScratch}).
   */
  static void writeValues(WriteBuffer buffer, KeyValue key) {
    ByteBuf bson = BsonScratch.take();
    bson.writeIntLE(0); // the document's length, set below
    for (int i = 0; i < key.size(); i++) {
      Object value = key.get(i);
      byte type = BsonEncoder.determineType(value);
      bson.writeByte(type);
      writeDecimal(bson, i); // the element's name, a C string
      bson.writeByte(0);
      BsonEncoder.encodeValue(type, value, bson);
    }
    bson.writeByte(0);
    bson.setIntLE(0, bson.writerIndex());
    BsonScratch.copyTo(bson, buffer);
  }

  private static void writeDecimal(ByteBuf bson, int index) {
    if (index >= 10) {
      writeDecimal(bson, index / 10);
    }
    bson.writeByte('0' + index % 10);
  }

  static KeyValue readValues(ByteBuffer buffer) {
    return new KeyValue(new ArrayList<>(BsonDocumentType.INSTANCE.read(buffer).values()));
  }

  /** H2's estimate of a key's heap footprint, by which it sizes its cache and splits pages. */
  static int memory(KeyValue key) {
    int size = 48;
    for (Object value : key) {
      size += value instanceof CharSequence text ? 48 + text.length() : 32;
    }
    return size;
  }

  @Override
  public KeyValue[] createStorage(int size) {
    return new KeyValue[size];
  }

  private static byte[] bson(Document document) {
    ByteBuf bson = Unpooled.buffer(64);
    try {
      BsonEncoder.encodeDocument(document, bson);
      return ByteBufUtil.getBytes(bson);
    } finally {
      bson.release();
    }
  }
}
