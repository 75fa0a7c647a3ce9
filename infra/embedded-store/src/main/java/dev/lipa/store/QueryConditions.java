package dev.lipa.store;

import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.MaxKey;
import de.bwaldvogel.mongo.bson.MinKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a query asks of the fields an index holds, read the way a key range can serve it: the conditions every answer
 * meets, by field; the values an equality selects ({@code $eq}, {@code $in}); the bounds of a range ({@code $gt},
 * {@code $gte}, {@code $lt}, {@code $lte}); the requested order. Anything a key range cannot select exactly as a
 * superset (null, embedded documents, arrays, regular expressions) is no condition here, and the store's matcher
 * decides it.
 */
final class QueryConditions {

  private static final List<String> RANGE = List.of("$gte", "$gt", "$lte", "$lt");

  /** A field of the requested order and its direction. */
  record SortField(String name, boolean descending) {
  }

  /** The bounds of a range condition; a null bound is open. */
  record Bounds(Object lower, boolean lowerInclusive, Object upper, boolean upperInclusive) {
  }

  private QueryConditions() {
  }

  /**
   * Every condition each answer to the query meets, by field: the query's top-level fields and those of the clauses of
   * a top-level {@code $and}, at any depth of nested {@code $and}s. Other operators ({@code $or}, {@code $nor},
   * {@code $expr}) offer no condition every answer meets and are skipped.
   */
  static Map<String, List<Object>> of(Document query) {
    Map<String, List<Object>> conditions = new LinkedHashMap<>();
    collect(query, conditions);
    return conditions;
  }

  private static void collect(Document query, Map<String, List<Object>> conditions) {
    for (Map.Entry<String, Object> entry : query.entrySet()) {
      if (entry.getKey().equals("$and") && entry.getValue() instanceof List<?> clauses) {
        for (Object clause : clauses) {
          if (clause instanceof Document document) {
            collect(document, conditions);
          }
        }
      } else if (!entry.getKey().startsWith("$")) {
        conditions.computeIfAbsent(entry.getKey(), k -> new ArrayList<>()).add(entry.getValue());
      }
    }
  }

  /** The values an equality condition selects, or null when the condition is not one a key range can serve. */
  static List<Object> equality(List<Object> conditions) {
    if (conditions == null) {
      return null;
    }
    for (Object condition : conditions) {
      if (indexable(condition)) {
        return List.of(condition);
      }
      if (condition instanceof Document operators && operators.keySet().stream().allMatch(k -> k.startsWith("$"))) {
        if (operators.containsKey("$eq") && indexable(operators.get("$eq"))) {
          return List.of(operators.get("$eq"));
        }
        if (operators.get("$in") instanceof Collection<?> values && !values.isEmpty()
            && values.stream().allMatch(QueryConditions::indexable)) {
          return List.copyOf(new LinkedHashSet<>(values));
        }
      }
    }
    return null;
  }

  /** The bounds of a range condition: the first lower and first upper bound found (one only on a multikey field). */
  static Bounds bounds(List<Object> conditions, boolean multikey) {
    if (conditions == null) {
      return null;
    }
    Object lower = null;
    Object upper = null;
    boolean lowerInclusive = false;
    boolean upperInclusive = false;
    for (Object condition : conditions) {
      if (!(condition instanceof Document operators)) {
        continue;
      }
      for (String operator : RANGE) {
        Object bound = operators.get(operator);
        if (!indexable(bound)) {
          continue;
        }
        if (operator.startsWith("$g") && lower == null) {
          lower = bound;
          lowerInclusive = operator.endsWith("e");
        } else if (operator.startsWith("$l") && upper == null) {
          upper = bound;
          upperInclusive = operator.endsWith("e");
        }
      }
    }
    if (lower == null && upper == null) {
      return null;
    }
    if (multikey && lower != null && upper != null) {
      upper = null; // each bound may be met by a different element of the array
    }
    return new Bounds(lower, lowerInclusive, upper, upperInclusive);
  }

  /** The requested order as fields and directions; empty without one; null for {@code $natural}. */
  static List<SortField> sortFields(Document orderBy) {
    List<SortField> fields = new ArrayList<>();
    if (orderBy == null) {
      return fields;
    }
    for (Map.Entry<String, Object> entry : orderBy.entrySet()) {
      if (entry.getKey().equals("$natural") || !(entry.getValue() instanceof Number direction)) {
        return null;
      }
      fields.add(new SortField(entry.getKey(), direction.intValue() < 0));
    }
    return fields;
  }

  /** A value the index holds as a key: not null, not a list, not an embedded document, not a regular expression. */
  private static boolean indexable(Object value) {
    return value != null && !(value instanceof Document) && !(value instanceof Collection<?>)
        && !(value instanceof Map<?, ?>) && !(value instanceof Pattern) && !(value instanceof BsonRegularExpression)
        && !(value instanceof MinKey) && !(value instanceof MaxKey);
  }
}
