package dev.lipa.infra.bench;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Sorts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.bson.Document;
import org.bson.types.ObjectId;

/**
 * Fills the running platform's store with {@code n} more payments shaped exactly like the ones it already holds: the
 * way to get a store of a million payments in minutes instead of an hour of {@code ./platform bench}, to measure what
 * a day of traffic does to a restart and a list ({@code ./platform bench --fill <n>}, docs/performance.md).
 *
 * <p>It needs finished payments to copy (run {@code ./platform bench --smoke} first). Every collection of the
 * services' databases that grew with the payments (at least half as many documents as there are STK pushes) gets the
 * same number of copies per payment as it has now. A copy is one of the collection's finished documents (no status,
 * or a final one; never a pending push or delivery, which the platform would go on working on) with its identifiers
 * made unique (every string held by a field named {@code _id} or ending in {@code Id}, {@code Key}, {@code Ref} or
 * {@code Reference}, except the organisation's, gets a suffix wherever it appears in the document), numeric
 * {@code id}s moved past the highest, outbox fields dropped, and every date moved back in time so the copies are
 * older than the real payments and spread over {@code spanDays}.
 */
public final class StoreFill {

  private static final List<String> DATABASES = List.of("lipa-collections", "lipa-payouts", "lipa-dispatcher",
      "lipa-checkout");
  private static final Pattern IDENTIFIER = Pattern.compile("_id|uuid|.*(Id|Key|Ref|Reference)");
  private static final Set<String> KEPT = Set.of("organisationId", "parentOrganisationId", "subAccountId",
      "keyId");
  private static final Set<String> FINAL = Set.of("SUCCESS", "FAILED", "DELIVERED", "DEAD", "COMPLETED",
      "SUCCEEDED", "EXPIRED", "CANCELLED", "REVERSED");
  private static final Pattern UUID_SHAPE =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final int TEMPLATES = 2_000;
  private static final int BATCH = 5_000;

  private StoreFill() {
  }

  public static void main(String[] args) {
    String mongo = "mongodb://127.0.0.1:27017";
    long payments = 1_000_000;
    int spanDays = 30;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--mongo" -> mongo = args[++i];
        case "--payments" -> payments = Long.parseLong(args[++i]);
        case "--span-days" -> spanDays = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    try (MongoClient client = MongoClients.create(mongo)) {
      fill(client, payments, spanDays);
    }
  }

  private static void fill(MongoClient client, long payments, int spanDays) {
    long pushes = client.getDatabase("lipa-collections").getCollection("stk_pushes").countDocuments();
    if (pushes < 100) {
      throw new IllegalStateException("the store holds " + pushes + " STK pushes: run ./platform bench --smoke first,"
          + " the fill copies finished payments");
    }
    Map<MongoCollection<Document>, Long> targets = new LinkedHashMap<>();
    for (String name : DATABASES) {
      MongoDatabase database = client.getDatabase(name);
      for (String collection : database.listCollectionNames()) {
        long count = database.getCollection(collection).countDocuments();
        if (!collection.startsWith("system.") && count * 2 >= pushes) {
          targets.put(database.getCollection(collection), Math.round((double) payments * count / pushes));
        }
      }
    }
    System.out.printf("fill: %,d payments; %,d STK pushes to copy from%n", payments, pushes);
    long started = System.nanoTime();
    long spanMillis = spanDays * 86_400_000L;
    for (Map.Entry<MongoCollection<Document>, Long> target : targets.entrySet()) {
      long written = copy(target.getKey(), target.getValue(), spanMillis);
      System.out.printf("  %s: %,d documents%n", target.getKey().getNamespace(), written);
    }
    System.out.printf("fill: done in %d s%n", (System.nanoTime() - started) / 1_000_000_000L);
  }

  private static long copy(MongoCollection<Document> collection, long copies, long spanMillis) {
    List<Document> templates = collection.find(Filters.or(Filters.exists("status", false),
        Filters.in("status", FINAL))).limit(TEMPLATES).into(new ArrayList<>());
    templates.removeIf(d -> d.containsKey("outboxPendingSince") || d.containsKey("leaseUntil")
        && d.get("leaseUntil") != null);
    if (templates.isEmpty()) {
      System.out.printf("  %s: no finished document to copy, skipped%n", collection.getNamespace());
      return 0;
    }
    Document highest = collection.find(Filters.type("id", "number")).sort(Sorts.descending("id")).first();
    long nextId = highest == null ? 0 : ((Number) highest.get("id")).longValue() + 1;
    List<Document> batch = new ArrayList<>(BATCH);
    long written = 0;
    for (long k = 0; k < copies; k++) {
      Document template = templates.get((int) (k % templates.size()));
      long back = 60_000 + (long) ((double) (copies - k) / copies * spanMillis); // the oldest copies first
      batch.add(copyOf(template, "~f" + k, nextId + k, back));
      if (batch.size() == BATCH) {
        collection.insertMany(batch, new InsertManyOptions().ordered(false));
        written += batch.size();
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      collection.insertMany(batch, new InsertManyOptions().ordered(false));
      written += batch.size();
    }
    return written;
  }

  /**
   * The copy's identifier for the template's: a UUID stays a UUID (the services read them as such), derived from the
   * template's and the copy's number so every occurrence in the document gets the same one; anything else gets the
   * suffix.
   */
  private static String replacement(String identifier, String suffix) {
    if (UUID_SHAPE.matcher(identifier).matches()) {
      return UUID.nameUUIDFromBytes((identifier + suffix).getBytes(StandardCharsets.UTF_8)).toString();
    }
    return identifier + suffix;
  }

  static Document copyOf(Document template, String suffix, long id, long backMillis) {
    List<String> identifiers = new ArrayList<>();
    collectIdentifiers(template, identifiers);
    List<String> kept = new ArrayList<>();
    KEPT.forEach(field -> collectValues(template, field, kept));
    identifiers.removeAll(kept); // the organisation's id stays, wherever it appears (e.g. as a nested uuid)
    identifiers.sort(Comparator.comparingInt(String::length).reversed()); // a longer one may contain a shorter
    Document copy = (Document) rewrite(template, identifiers, suffix, backMillis);
    copy.remove("outbox");
    copy.remove("outboxPendingSince");
    Object templateId = template.get("_id");
    if (templateId instanceof ObjectId) {
      copy.put("_id", new ObjectId());
    } else if (templateId instanceof UUID) {
      copy.put("_id", UUID.randomUUID());
    } else if (!(templateId instanceof String)) {
      copy.remove("_id"); // the driver gives it a fresh ObjectId
    }
    if (template.get("id") instanceof Number) {
      copy.put("id", id);
    }
    return copy;
  }

  private static void collectValues(Object node, String field, List<String> values) {
    if (node instanceof Document document) {
      document.forEach((key, value) -> {
        if (key.equals(field) && value instanceof String text) {
          values.add(text);
        } else {
          collectValues(value, field, values);
        }
      });
    } else if (node instanceof List<?> elements) {
      elements.forEach(element -> collectValues(element, field, values));
    }
  }

  private static void collectIdentifiers(Document document, List<String> identifiers) {
    for (Map.Entry<String, Object> field : document.entrySet()) {
      Object value = field.getValue();
      if (value instanceof String text && text.length() >= 6 && !KEPT.contains(field.getKey())
          && IDENTIFIER.matcher(field.getKey()).matches() && !identifiers.contains(text)) {
        identifiers.add(text);
      } else if (value instanceof Document nested) {
        collectIdentifiers(nested, identifiers);
      } else if (value instanceof List<?> elements) {
        for (Object element : elements) {
          if (element instanceof Document nested) {
            collectIdentifiers(nested, identifiers);
          }
        }
      }
    }
  }

  private static Object rewrite(Object value, List<String> identifiers, String suffix, long backMillis) {
    if (value instanceof Document document) {
      Document copy = new Document();
      document.forEach((key, field) -> copy.put(key, KEPT.contains(key) ? field
          : rewrite(field, identifiers, suffix, backMillis)));
      return copy;
    }
    if (value instanceof List<?> elements) {
      List<Object> copy = new ArrayList<>(elements.size());
      elements.forEach(element -> copy.add(rewrite(element, identifiers, suffix, backMillis)));
      return copy;
    }
    if (value instanceof String text) {
      String rewritten = text;
      for (String identifier : identifiers) {
        if (rewritten.contains(identifier)) {
          rewritten = rewritten.replace(identifier, replacement(identifier, suffix));
        }
      }
      return rewritten;
    }
    if (value instanceof Date date) {
      return new Date(date.getTime() - backMillis);
    }
    return value;
  }
}
