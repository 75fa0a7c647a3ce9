package dev.lipa.store;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import org.h2.mvstore.MVMap;

/**
 * The names and types of the on-disk store's maps in its H2 file: a collection's documents (BSON), its unique indexes'
 * keys ({@link KeyValueType}) and its sorted indexes' keys ({@link SortedKeyType}). The names are mongo-java-server's
 * where it names the map (documents, metadata, unique indexes) and ours for the sorted indexes; they are the file's
 * format, read again by every later version of the store.
 */
final class FileMaps {

  private static final String DATA_PREFIX = "databases.";
  private static final String META_PREFIX = "meta.";
  /** Between a collection's namespace and an index's name in the name of the index's map. */
  private static final String INDEX_INFIX = "._index_";
  /** Between a collection's namespace and a sorted (non-unique) index's name in the name of the index's map. */
  private static final String SORTED_INFIX = "._sorted_";

  private FileMaps() {
  }

  /** The map of a collection's documents, by the collection's namespace ({@code database.collection}). */
  static String documents(String namespace) {
    return DATA_PREFIX + namespace;
  }

  static String meta(String namespace) {
    return META_PREFIX + namespace;
  }

  static String uniqueIndex(String namespace, String index) {
    return namespace + INDEX_INFIX + index;
  }

  static String sortedIndex(String namespace, String index) {
    return namespace + SORTED_INFIX + index;
  }

  static boolean isDocuments(String map) {
    return map.startsWith(DATA_PREFIX);
  }

  static boolean isUniqueIndex(String map) {
    return map.contains(INDEX_INFIX);
  }

  static MVMap.Builder<Object, Document> bsonDocuments() {
    return new MVMap.Builder<Object, Document>().valueType(BsonDocumentType.INSTANCE);
  }

  static MVMap.Builder<KeyValue, Object> uniqueKeys() {
    return new MVMap.Builder<KeyValue, Object>().keyType(KeyValueType.INSTANCE);
  }

  static MVMap.Builder<KeyValue, Boolean> sortedKeys(SortedKeyType order) {
    return new MVMap.Builder<KeyValue, Boolean>().keyType(order);
  }
}
