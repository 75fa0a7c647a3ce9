package dev.lipa.store;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.util.List;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Converts an H2 file written before the store wrote its documents and unique index keys as BSON (both were in H2's
 * generic type, Java serialisation) in place, once, before the store opens it: each collection's documents (each
 * index's keys) are copied into a new map of the BSON type, which then takes the old map's name, and is noted as
 * converted in the same commit; a conversion cut short goes on with the maps not yet converted the next time. A new file
 * is only marked.
 */
final class BsonConversion {

  private static final Logger log = LoggerFactory.getLogger(BsonConversion.class);

  /** The map in the H2 file that says how its documents are written. */
  static final String FORMAT_MAP = "lipa.format";
  static final String DOCUMENTS_KEY = "documents";
  static final String BSON_FORMAT = "bson-1";
  /** A map converted by a conversion that has not finished yet, in {@link #FORMAT_MAP}. */
  private static final String CONVERTED = "converted:";
  private static final String SCRATCH = "lipa.converting.";

  private BsonConversion() {
  }

  /** Converts the file unless it says it is BSON already. */
  static void convert(String file) {
    MVStore store = MVStore.open(file);
    try {
      MVMap<String, String> format = store.openMap(FORMAT_MAP);
      if (BSON_FORMAT.equals(format.get(DOCUMENTS_KEY))) {
        return;
      }
      for (String name : store.getMapNames()) {
        if (name.startsWith(SCRATCH)) {
          store.removeMap(name); // a conversion cut short: its copy is incomplete, the original still there
        }
      }
      long started = System.nanoTime();
      long documents = 0;
      int collections = 0;
      for (String name : store.getMapNames()) {
        if (format.containsKey(CONVERTED + name)) {
          continue; // converted before a conversion was cut short
        }
        if (FileMaps.isDocuments(name)) {
          MVMap<Object, Object> original = store.openMap(name);
          MVMap<Object, Document> copy = store.openMap(SCRATCH + name, FileMaps.bsonDocuments());
          original.forEach((id, document) -> copy.put(id, (Document) document));
          documents += copy.sizeAsLong();
          collections++;
          replace(store, format, original, copy, name);
        } else if (FileMaps.isUniqueIndex(name)) {
          MVMap<Object, Object> original = store.openMap(name);
          MVMap<KeyValue, Object> copy = store.openMap(SCRATCH + name, FileMaps.uniqueKeys());
          original.forEach((key, position) -> copy.put((KeyValue) key, position));
          replace(store, format, original, copy, name);
        }
      }
      format.put(DOCUMENTS_KEY, BSON_FORMAT);
      for (String key : List.copyOf(format.keySet())) {
        if (key.startsWith(CONVERTED)) {
          format.remove(key);
        }
      }
      store.commit();
      if (collections > 0) {
        log.info("converted {} documents in {} collections of {} to BSON in {} ms", documents, collections, file,
            (System.nanoTime() - started) / 1_000_000);
      }
    } finally {
      store.close();
    }
  }

  /** The converted copy takes the original's name, marked as converted in the same commit. */
  private static void replace(MVStore store, MVMap<String, String> format, MVMap<?, ?> original, MVMap<?, ?> copy,
      String name) {
    store.removeMap(original);
    store.renameMap(copy, name);
    format.put(CONVERTED + name, BSON_FORMAT);
    store.commit();
  }
}
