package dev.lipa.store;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The keys a {@link SortedIndex} holds for a document: one per combination of its fields' values (each element of an
 * array under a key of its own, as in MongoDB; a missing field as null), the document's {@code _id} last; none for a
 * document of a sparse index that has none of its fields.
 */
final class IndexKeys {

  /** More keys than this for one document (arrays in several fields multiply) and the index gives up on serving. */
  private static final int MAX_KEYS_PER_DOCUMENT = 1_000;

  private IndexKeys() {
  }

  /**
   * The keys of {@code document} in an index on {@code fields}; {@code arrayIn} hears of each field where an array was
   * met (the field is then multikey: its keys no longer give the documents' sort order).
   *
   * @throws IllegalArgumentException for more than {@value #MAX_KEYS_PER_DOCUMENT} keys
   */
  static List<KeyValue> of(Document document, List<String> fields, boolean sparse, IntConsumer arrayIn) {
    List<List<Object>> perField = new ArrayList<>(fields.size());
    boolean any = false;
    for (int i = 0; i < fields.size(); i++) {
      List<Object> values = new ArrayList<>(1);
      if (collect(document, fields.get(i).split("\\."), 0, values)) {
        arrayIn.accept(i);
      }
      if (values.isEmpty()) {
        values.add(null);
      } else {
        any = true;
      }
      perField.add(values);
    }
    if (sparse && !any) {
      return List.of();
    }
    List<List<Object>> combinations = new ArrayList<>();
    combinations.add(new ArrayList<>());
    for (List<Object> values : perField) {
      List<List<Object>> next = new ArrayList<>(combinations.size() * values.size());
      for (List<Object> prefix : combinations) {
        for (Object value : new LinkedHashSet<>(values)) {
          List<Object> combined = new ArrayList<>(prefix);
          combined.add(value);
          next.add(combined);
        }
      }
      combinations = next;
      if (combinations.size() > MAX_KEYS_PER_DOCUMENT) {
        throw new IllegalArgumentException("more than " + MAX_KEYS_PER_DOCUMENT + " index keys for one document");
      }
    }
    Object id = document.get("_id");
    List<KeyValue> keys = new ArrayList<>(combinations.size());
    for (List<Object> combination : combinations) {
      combination.add(id);
      keys.add(new KeyValue(combination));
    }
    return keys;
  }

  /**
   * Collects the field's values in the document, each element of an array along the path; returns whether an array
   * was met.
   */
  private static boolean collect(Object node, String[] path, int depth, List<Object> values) {
    if (node instanceof Collection<?> elements) {
      for (Object element : elements) {
        collect(element, path, depth, values);
      }
      return true;
    }
    if (depth == path.length) {
      if (node != null) {
        values.add(node);
      }
      return false;
    }
    return node instanceof Document document && collect(document.get(path[depth]), path, depth + 1, values);
  }
}
