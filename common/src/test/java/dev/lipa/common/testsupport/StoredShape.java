package dev.lipa.common.testsupport;

import com.mongodb.client.MongoCollection;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.conversions.Bson;

/**
 * The shape of a stored document: every field's path and BSON type as the store holds it, one {@code path: type} line
 * each, sorted by path. Tests pin it for each collection, so that a renamed or dropped field, or a changed type (an
 * amount written as a string instead of a Decimal128, a date as a number), fails before data written by an earlier
 * release goes unread. Array elements are {@code path[]}; the types an array's elements take are joined by {@code |};
 * an empty array is {@code path[]: (empty)}.
 */
public final class StoredShape {

  private StoredShape() {
  }

  /** The document as the store holds it (no codec in between), or an AssertionError when there is none. */
  public static BsonDocument stored(MongoCollection<?> collection, Bson filter) {
    BsonDocument document = collection.withDocumentClass(BsonDocument.class).find(filter).first();
    if (document == null) {
      throw new AssertionError("no document in " + collection.getNamespace() + " matches " + filter);
    }
    return document;
  }

  /** The shape of the document, leaving out the named top-level fields (such as the outbox's, pinned on their own). */
  public static String of(BsonDocument document, String... ignoring) {
    Set<String> ignored = Set.of(ignoring);
    // sorted by path, a field's elements and fields right after it
    Map<String, Set<String>> types = new TreeMap<>(
        Comparator.comparing((String path) -> path.replace("[]", "\u0001").replace('.', '\u0002')));
    document.forEach((name, value) -> {
      if (!ignored.contains(name)) {
        collect(name, value, types);
      }
    });
    return types.entrySet().stream().map(e -> e.getKey() + ": " + String.join("|", e.getValue()))
        .collect(Collectors.joining("\n", "", "\n"));
  }

  /** Fails with the actual shape when it is not the pinned one. */
  public static void assertShape(BsonDocument document, String pinned, String... ignoring) {
    String actual = of(document, ignoring);
    if (!actual.equals(pinned)) {
      throw new AssertionError("the stored shape changed (ignoring " + Arrays.toString(ignoring) + ")\nexpected:\n"
          + pinned + "actual:\n" + actual + "document: " + document.toJson());
    }
  }

  private static void collect(String path, BsonValue value, Map<String, Set<String>> types) {
    types.computeIfAbsent(path, p -> new TreeSet<>()).add(name(value));
    if (value.isDocument()) {
      value.asDocument().forEach((name, inner) -> collect(path + "." + name, inner, types));
    } else if (value.isArray()) {
      BsonArray array = value.asArray();
      if (array.isEmpty()) {
        types.computeIfAbsent(path + "[]", p -> new TreeSet<>()).add("(empty)");
      }
      array.forEach(element -> collect(path + "[]", element, types));
    }
  }

  private static String name(BsonValue value) {
    return value.getBsonType().name().toLowerCase(java.util.Locale.ROOT);
  }
}
