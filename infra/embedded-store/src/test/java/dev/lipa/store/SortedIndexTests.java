package dev.lipa.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.DocumentComparator;
import de.bwaldvogel.mongo.backend.IndexKey;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SortedIndexTests {

  @TempDir
  Path directory;

  private static de.bwaldvogel.mongo.bson.Document doc(Object... pairs) {
    de.bwaldvogel.mongo.bson.Document document = new de.bwaldvogel.mongo.bson.Document();
    for (int i = 0; i < pairs.length; i += 2) {
      document.append((String) pairs[i], pairs[i + 1]);
    }
    return document;
  }

  private static SortedIndex<Integer> index(String... keys) {
    List<IndexKey> indexKeys = new ArrayList<>();
    for (String key : keys) {
      boolean descending = key.startsWith("-");
      indexKeys.add(new IndexKey(descending ? key.substring(1) : key, !descending));
    }
    SortedKeyType order = SortedIndex.order(indexKeys);
    return new SortedIndex<>("test", indexKeys, false, IndexEntries.inMemory(order), order, IndexStates.inMemory());
  }

  /** The _ids a plan reads, in its order, the documents matched against the query as the store would. */
  private static List<Object> read(SortedIndex<Integer> index, Map<Integer, de.bwaldvogel.mongo.bson.Document> byPosition,
      de.bwaldvogel.mongo.bson.Document query, de.bwaldvogel.mongo.bson.Document sort) {
    QueryPlanner.Plan<Integer> plan = QueryPlanner.plan(List.of(index), query, sort);
    assertThat(plan).as("a plan for %s sorted by %s", query, sort).isNotNull();
    return plan.documents(byPosition::get, d -> true, sort == null ? null : new DocumentComparator(sort))
        .map(d -> d.get("_id")).toList();
  }

  @Test
  void readsTheRangesOfPinnedFieldsAndABoundInTheIndexOrderForwardOrReversed() {
    SortedIndex<Integer> index = index("org", "-createdAt");
    Map<Integer, de.bwaldvogel.mongo.bson.Document> documents = new java.util.HashMap<>();
    int position = 0;
    for (String org : List.of("o1", "o2")) {
      for (int at = 1; at <= 5; at++) {
        de.bwaldvogel.mongo.bson.Document document = doc("_id", org + "-" + at, "org", org, "createdAt", at);
        documents.put(++position, document);
        index.add(document, position, null);
      }
    }

    assertThat(read(index, documents, doc("org", "o2"), doc("createdAt", -1)))
        .containsExactly("o2-5", "o2-4", "o2-3", "o2-2", "o2-1");
    assertThat(read(index, documents, doc("org", "o2"), doc("createdAt", 1)))
        .containsExactly("o2-1", "o2-2", "o2-3", "o2-4", "o2-5");
    assertThat(read(index, documents, doc("$and", List.of(doc("org", "o1"), doc("createdAt", doc("$gte", 2)),
        doc("createdAt", doc("$lt", 4)))), doc("createdAt", -1))).containsExactly("o1-3", "o1-2");
    assertThat(read(index, documents, doc("org", "o1", "createdAt", doc("$gt", 3)), null))
        .containsExactly("o1-5", "o1-4");
    assertThat(read(index, documents, doc("org", doc("$in", List.of("o2", "o1")), "createdAt", doc("$lte", 1)), null))
        .containsExactly("o2-1", "o1-1");
    assertThat(read(index, documents, doc("org", "o3"), doc("createdAt", -1))).isEmpty();
    // the sort on the pinned field and then the next one, and the _id after the index's fields
    assertThat(read(index, documents, doc("org", "o1"), doc("org", 1, "createdAt", -1, "_id", 1)))
        .containsExactly("o1-5", "o1-4", "o1-3", "o1-2", "o1-1");
    assertThat(QueryPlanner.plan(List.of(index), doc("org", "o1"), doc("createdAt", -1)).ordered()).isTrue();
  }

  @Test
  void sortsDocumentsThatTieOnTheIndexedOrderByTheRestOfTheRequestedOrder() {
    SortedIndex<Integer> index = index("org", "createdAt");
    Map<Integer, de.bwaldvogel.mongo.bson.Document> documents = new java.util.HashMap<>();
    int position = 0;
    for (int i = 0; i < 9; i++) {
      de.bwaldvogel.mongo.bson.Document document = doc("_id", "p" + i, "org", "o", "createdAt", i / 3, "id", 10 - i);
      documents.put(++position, document);
      index.add(document, position, null);
    }

    QueryPlanner.Plan<Integer> plan = QueryPlanner.plan(List.of(index), doc("org", "o"), doc("createdAt", -1, "id", 1));
    assertThat(plan.given()).isEqualTo(1);
    assertThat(plan.wanted()).isEqualTo(2);
    assertThat(read(index, documents, doc("org", "o"), doc("createdAt", -1, "id", 1)))
        .containsExactly("p8", "p7", "p6", "p5", "p4", "p3", "p2", "p1", "p0");
    assertThat(read(index, documents, doc("org", "o"), doc("createdAt", -1, "id", -1)))
        .containsExactly("p6", "p7", "p8", "p3", "p4", "p5", "p0", "p1", "p2");
  }

  @Test
  void leavesToTheStoreWhatAKeyRangeCannotSelectAsASuperset() {
    SortedIndex<Integer> index = index("status", "createdAt");
    for (Object condition : List.of(doc("$exists", false), doc("$ne", "A"), doc("$nin", List.of("A")),
        doc("$not", doc("$eq", "A")), doc("$eq", doc("x", 1)), doc("$in", List.of("A", doc("x", 1))),
        Pattern.compile("^P"), List.of("A", "B"), doc("x", 1), doc())) {
      assertThat(QueryPlanner.plan(List.of(index), doc("status", condition), null)).as("%s", condition).isNull();
    }
    assertThat(QueryPlanner.plan(List.of(index), doc("status", null), null)).isNull();
    assertThat(QueryPlanner.plan(List.of(index), doc("other", "A"), null)).isNull();
    assertThat(QueryPlanner.plan(List.of(index), doc("$or", List.of(doc("status", "A"), doc("status", "B"))), null))
        .isNull();
    assertThat(QueryPlanner.plan(List.of(index), doc("createdAt", 1), null)).as("not the first key").isNull();
    assertThat(QueryPlanner.plan(List.of(index), doc("status", "A"), doc("$natural", -1))).isNull();
    // a sort alone is served by a full index that gives it, never by a sparse one
    assertThat(QueryPlanner.plan(List.of(index), doc(), doc("status", 1))).isNotNull();
    List<IndexKey> keys = List.of(new IndexKey("status", true));
    SortedKeyType order = SortedIndex.order(keys);
    SortedIndex<Integer> sparse = new SortedIndex<>("sparse", keys, true, IndexEntries.inMemory(order), order,
        IndexStates.inMemory());
    assertThat(QueryPlanner.plan(List.of(sparse), doc(), doc("status", 1))).isNull();
    assertThat(QueryPlanner.plan(List.of(sparse), doc("status", doc("$gt", "A")), null)).isNotNull();
  }

  @Test
  void indexesEachElementOfArraysAndNeverOrdersByAMultikeyFieldNorUsesBothOfItsBounds() {
    SortedIndex<Integer> holds = index("holds.at");
    Map<Integer, de.bwaldvogel.mongo.bson.Document> documents = new java.util.HashMap<>();
    documents.put(1, doc("_id", "x", "holds", List.of(doc("at", 10), doc("at", 30))));
    documents.put(2, doc("_id", "y", "holds", List.of(doc("at", 20))));
    documents.put(3, doc("_id", "z", "holds", List.of()));
    documents.forEach((position, document) -> holds.add(document, position, null));

    assertThat(holds.multikey(0)).isTrue();
    assertThat(read(holds, documents, doc("holds.at", doc("$lt", 15)), null)).containsExactly("z", "x");
    assertThat(read(holds, documents, doc("holds.at", 20L), null)).containsExactly("y");
    assertThat(read(holds, documents, doc("holds.at", 30.0), null)).containsExactly("x");
    // x meets $gt 25 with one element and $lt 15 with another: both bounds would lose it
    assertThat(read(holds, documents, doc("$and", List.of(doc("holds.at", doc("$gt", 25)),
        doc("holds.at", doc("$lt", 15)))), null)).contains("x");
    QueryPlanner.Plan<Integer> sorted = QueryPlanner.plan(List.of(holds), doc("holds.at", doc("$gt", 0)),
        doc("holds.at", 1));
    assertThat(sorted.given()).isZero();
    assertThat(sorted.ordered()).isFalse();
    assertThat(holds.getCount()).isEqualTo(4);
  }

  @Test
  void followsUpdatesAndRemovalsAndReturnsTheRemovedPosition() {
    SortedIndex<Integer> index = index("pendingSince");
    Map<Integer, de.bwaldvogel.mongo.bson.Document> documents = new java.util.HashMap<>();
    // the store decodes BSON dates as Instants
    de.bwaldvogel.mongo.bson.Document pending = doc("_id", "a", "pendingSince", Instant.ofEpochMilli(1_000));
    documents.put(7, pending);
    documents.put(8, doc("_id", "b", "pendingSince", Instant.ofEpochMilli(2_000)));
    documents.forEach((position, document) -> index.add(document, position, null));
    de.bwaldvogel.mongo.bson.Document before = doc("pendingSince", doc("$lt", Instant.ofEpochMilli(5_000)));

    de.bwaldvogel.mongo.bson.Document cleared = doc("_id", "a");
    index.updateInPlace(pending, cleared, 7, null);
    documents.put(7, cleared);
    assertThat(read(index, documents, before, null)).containsExactly("a", "b"); // a missing field is a null key

    de.bwaldvogel.mongo.bson.Document again = doc("_id", "a", "pendingSince", Instant.ofEpochMilli(3_000));
    index.updateInPlace(cleared, again, 7, null);
    documents.put(7, again);
    assertThat(read(index, documents, doc("pendingSince", doc("$gt", Instant.ofEpochMilli(1_500))), null))
        .containsExactly("b", "a");

    assertThat(index.remove(again)).isEqualTo(7);
    assertThat(index.remove(doc("_id", "q"))).isNull();
    assertThat(index.getCount()).isEqualTo(1);
  }

  /**
   * Over the wire, on both backends: every query answers exactly as the same query on an unindexed copy of the
   * collection (a scan), order, sort and limit included, after inserts, updates and deletes; and on H2 again after the
   * store is reopened (the index is rebuilt from the collection).
   */
  @Test
  void answersEveryQueryAsAScanDoesOnBothBackends() {
    check(StoreBackends.memory(), false);
    check(StoreBackends.h2(directory.resolve("secondary.mv")), false);
    check(StoreBackends.h2(directory.resolve("secondary.mv")), true);
  }

  private void check(MongoBackend backend, boolean reopened) {
    MongoServer server = new MongoServer(backend);
    InetSocketAddress address = server.bind();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort())) {
      MongoDatabase database = client.getDatabase("secondary");
      MongoCollection<Document> indexed = database.getCollection("indexed");
      MongoCollection<Document> scanned = database.getCollection("scanned");
      if (!reopened) {
        indexed.createIndex(Indexes.ascending("status", "createdAt"));
        indexed.createIndex(Indexes.ascending("pendingSince"), new IndexOptions().sparse(true));
        indexed.createIndex(Indexes.ascending("holds.at"));
        indexed.createIndex(Indexes.compoundIndex(Indexes.ascending("org"), Indexes.descending("createdAt")));
        indexed.createIndex(Indexes.compoundIndex(Indexes.ascending("org"), Indexes.descending("day")));
        List<Document> documents = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
          Document document = new Document("_id", "d" + i).append("org", "o" + (i % 3))
              .append("status", List.of("PENDING", "SUCCESS", "FAILED").get(i % 3))
              .append("createdAt", new Date(1_000L * i)).append("n", i % 2 == 0 ? i : (long) i).append("day", i / 10);
          if (i % 5 == 0) {
            document.append("pendingSince", new Date(500L * i));
          } else if (i % 11 == 0) {
            document.append("pendingSince", null);
          } else if (i % 13 == 0) {
            document.append("pendingSince", new Document("at", new Date(1)));
          }
          if (i % 7 == 0) {
            document.append("holds", List.of(new Document("at", new Date(10L * i)), new Document("at", new Date(9_999))));
          }
          documents.add(document);
        }
        indexed.insertMany(documents);
        scanned.insertMany(documents.stream().map(Document::new).toList());
        for (MongoCollection<Document> collection : List.of(indexed, scanned)) {
          collection.updateMany(Filters.lt("createdAt", new Date(30_000)), Updates.set("status", "SUCCESS"));
          collection.updateMany(Filters.eq("org", "o1"), Updates.unset("pendingSince"));
          collection.updateOne(Filters.eq("_id", "d3"), Updates.set("pendingSince", new Date(1)));
          collection.deleteMany(Filters.and(Filters.eq("status", "FAILED"), Filters.gt("createdAt", new Date(250_000))));
        }
      }

      List<Bson> queries = List.of(
          Filters.and(Filters.eq("status", "PENDING"), Filters.lt("createdAt", new Date(120_000))),
          Filters.eq("status", "SUCCESS"),
          Filters.in("status", List.of("FAILED", "PENDING")),
          Filters.and(Filters.gte("status", "PENDING"), Filters.ne("org", "o0")),
          Filters.lt("pendingSince", new Date(60_000)),
          Filters.and(Filters.exists("pendingSince"), Filters.eq("org", "o2")),
          Filters.eq("pendingSince", null),
          Filters.gt("pendingSince", new Document("at", new Date(0))),
          Filters.eq("pendingSince", new Document("at", new Date(1))),
          Filters.lte("holds.at", new Date(700)),
          Filters.eq("holds.at", new Date(9_999)),
          Filters.and(Filters.gt("holds.at", new Date(2_000)), Filters.lt("holds.at", new Date(1_000))),
          Filters.ne("status", "SUCCESS"),
          Filters.eq("org", "o1"),
          Filters.and(Filters.eq("org", "o2"), Filters.gte("createdAt", new Date(30_000)),
              Filters.lte("createdAt", new Date(200_000))),
          Filters.and(Filters.eq("org", "o0"), Filters.eq("status", "SUCCESS"), Filters.gt("day", 3)),
          Filters.in("org", List.of("o0", "o2")),
          new Document(),
          Filters.or(Filters.eq("status", "FAILED"), Filters.lt("pendingSince", new Date(10_000))));
      for (Bson query : queries) {
        // without a sort, neither the store nor MongoDB promises an order: the same documents
        Function<MongoCollection<Document>, List<Object>> ids = c -> c.find(query).map(d -> d.get("_id"))
            .into(new ArrayList<>());
        assertThat(ids.apply(indexed)).as("%s", query).containsExactlyInAnyOrderElementsOf(ids.apply(scanned));
        assertThat(indexed.find(query).sort(Sorts.descending("createdAt")).limit(5).map(d -> d.get("_id"))
            .into(new ArrayList<>())).as("sorted %s", query)
            .isEqualTo(scanned.find(query).sort(Sorts.descending("createdAt")).limit(5).map(d -> d.get("_id"))
                .into(new ArrayList<>()));
        assertThat(indexed.countDocuments(query)).isEqualTo(scanned.countDocuments(query));
        // the orders the index gives whole, in part (ties sorted by the rest), reversed, or not at all
        for (Bson sort : List.of(Sorts.descending("createdAt", "_id"), Sorts.ascending("createdAt"),
            Sorts.orderBy(Sorts.descending("day"), Sorts.ascending("n")), Sorts.descending("day", "_id"),
            Sorts.orderBy(Sorts.ascending("org"), Sorts.descending("createdAt")), Sorts.ascending("status", "_id"))) {
          for (int[] page : new int[][] {{0, 7}, {5, 3}, {40, 20}, {0, 0}}) {
            Function<MongoCollection<Document>, List<Object>> paged = c -> c.find(query).sort(sort).skip(page[0])
                .limit(page[1]).map(d -> d.get("_id")).into(new ArrayList<>());
            assertThat(paged.apply(indexed)).as("%s sorted by %s, page %s", query, sort, List.of(page[0], page[1]))
                .isEqualTo(paged.apply(scanned));
          }
        }
      }
      // the mixed-bounds query above only matches through two different elements of one array
      assertThat(indexed.countDocuments(queries.get(11))).isPositive();
      assertThat(indexed.countDocuments(queries.get(0))).isPositive();
    } finally {
      server.shutdownNow();
    }
  }

  /**
   * Every collection's {@code _id} index answers a query that pins {@code _id} with one document; a secondary index
   * that also could (here on {@code organisationId}, which every document of one merchant shares) must never take it,
   * whatever order the store lists its indexes in. A reopened H2 file lists them in an order of its own: the lookup of
   * a push by {@code {_id, organisationId}} once went through the organisation's bucket there, every push of the
   * merchant read from disk for one (150 ms per lookup at 100,000 pushes).
   */
  @Test
  void neverTakesAQueryThatPinsTheIdOnEitherBackendFreshOrReopened() {
    Path file = directory.resolve("precedence.mv");
    checkIdPrecedence(StoreBackends.memory(), false);
    checkIdPrecedence(StoreBackends.h2(file), false);
    checkIdPrecedence(StoreBackends.h2(file), true);

    SortedIndex<Integer> index = index("organisationId");
    de.bwaldvogel.mongo.backend.Index<Integer> id = new PinnedKeyIndex<>("_id_",
        new de.bwaldvogel.mongo.backend.memory.index.MemoryUniqueIndex("_id_", List.of(new IndexKey("_id", true)),
            false), false, null);
    List<de.bwaldvogel.mongo.backend.Index<Integer>> both = List.of(index, id);
    assertThat(QueryPlanner.plan(both, doc("_id", "p-1").append("organisationId", "o"), null)).isNull();
    assertThat(QueryPlanner.plan(both, doc("_id", doc("$in", List.of("p-1", "p-2"))).append("organisationId", "o"),
        null)).isNull();
    // a range on _id is no lookup: the organisation's keys are the better start
    assertThat(QueryPlanner.plan(both, doc("_id", doc("$gt", "p-1")).append("organisationId", "o"), null)).isNotNull();
    assertThat(QueryPlanner.plan(both, doc("organisationId", "o"), null)).isNotNull();
  }

  private void checkIdPrecedence(MongoBackend backend, boolean reopened) {
    MongoServer server = new MongoServer(backend);
    InetSocketAddress address = server.bind();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort())) {
      MongoCollection<Document> pushes = client.getDatabase("precedence").getCollection("pushes");
      if (!reopened) {
        pushes.createIndex(Indexes.ascending("organisationId", "createdAt"));
        pushes.createIndex(Indexes.ascending("status", "createdAt"));
        pushes.createIndex(Indexes.ascending("organisationId", "referenceId"), new IndexOptions().unique(true));
        for (int i = 0; i < 50; i++) {
          pushes.insertOne(new Document("_id", "p-" + i).append("organisationId", "o").append("referenceId", "r-" + i)
              .append("status", "PENDING").append("createdAt", new Date(i)));
        }
      }
      Bson byId = Filters.and(Filters.eq("_id", "p-7"), Filters.eq("organisationId", "o"));
      assertThat(pushes.find(byId).first()).isNotNull().extracting(d -> d.get("referenceId")).isEqualTo("r-7");

      // the store uses the first of the collection's indexes that can serve a query: it must be the _id index
      de.bwaldvogel.mongo.bson.Document query = new de.bwaldvogel.mongo.bson.Document("$and", List.of(
          new de.bwaldvogel.mongo.bson.Document("_id", "p-7"), new de.bwaldvogel.mongo.bson.Document("organisationId", "o")));
      var indexes = backend.resolveDatabase("precedence").resolveCollection("pushes", true).getIndexes();
      assertThat(indexes.stream().filter(i -> i.canHandle(query)).findFirst())
          .as("the index serving {_id, organisationId}, %s%s", backend, reopened ? " reopened" : "")
          .hasValueSatisfying(i -> assertThat(i.getName()).isEqualTo("_id_"));
    } finally {
      server.shutdownNow();
    }
  }

  /**
   * A file from before the indexes were kept on disk (no index maps, no index states) gets each index built once, as
   * it opens, and never again; so does a file whose build was cut short (keys there, state not), from scratch.
   */
  @Test
  void buildsAMissingIndexOnceWhenTheFileOpensAndAnswersAsBefore() {
    Path file = directory.resolve("older.mv");
    List<Object> newest = withPushes(file, pushes -> {
      pushes.createIndex(Indexes.compoundIndex(Indexes.ascending("org"), Indexes.descending("createdAt")));
      for (int i = 0; i < 500; i++) {
        pushes.insertOne(new Document("_id", "p-" + i).append("org", "o" + i % 2).append("createdAt", new Date(i)));
      }
      return newest(pushes);
    });
    for (boolean cutShort : List.of(false, true)) {
      try (org.h2.mvstore.MVStore store = org.h2.mvstore.MVStore.open(file.toString())) {
        store.removeMap(IndexStates.MAP); // as if the file predates them, or the build was cut short
        if (!cutShort) {
          store.getMapNames().stream().filter(name -> name.contains("._sorted_")).toList()
              .forEach(store::removeMap);
        }
      }
      withPushes(file, pushes -> {
        assertThat(statistic(pushes, "indexBuildsAtOpen")).as("built at open").isEqualTo(1);
        assertThat(newest(pushes)).isEqualTo(newest);
        return null;
      });
      withPushes(file, pushes -> {
        assertThat(statistic(pushes, "indexBuildsAtOpen")).as("not again").isZero();
        assertThat(newest(pushes)).isEqualTo(newest);
        return null;
      });
    }
  }

  private static List<Object> newest(MongoCollection<Document> pushes) {
    return pushes.find(Filters.eq("org", "o1")).sort(Sorts.descending("createdAt")).limit(5).map(d -> d.get("_id"))
        .into(new ArrayList<>());
  }

  /** A counter of serverStatus().lipa, as a delta over the backend's life when it is one of the process's. */
  private static long statistic(MongoCollection<Document> pushes, String name) {
    return ((Number) opened.get().getDatabase("admin").runCommand(new Document("serverStatus", 1))
        .get("lipa", Document.class).get(name)).longValue() - baseline.get();
  }

  private static final ThreadLocal<MongoClient> opened = new ThreadLocal<>();
  private static final ThreadLocal<Long> baseline = new ThreadLocal<>();

  private static <T> T withPushes(Path file, Function<MongoCollection<Document>, T> work) {
    long before = buildsSoFar();
    MongoServer server = new MongoServer(StoreBackends.h2(file));
    InetSocketAddress address = server.bind();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort())) {
      opened.set(client);
      baseline.set(before);
      return work.apply(client.getDatabase("older").getCollection("pushes"));
    } finally {
      server.shutdown();
    }
  }

  private static long buildsSoFar() {
    MongoServer probe = new MongoServer(StoreBackends.memory());
    InetSocketAddress address = probe.bind();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort())) {
      return ((Number) client.getDatabase("admin").runCommand(new Document("serverStatus", 1))
          .get("lipa", Document.class).get("indexBuildsAtOpen")).longValue();
    } finally {
      probe.shutdownNow();
    }
  }
}
