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
import de.bwaldvogel.mongo.backend.IndexKey;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecondaryIndexTests {

  @TempDir
  Path directory;

  private static de.bwaldvogel.mongo.bson.Document doc(Object... pairs) {
    de.bwaldvogel.mongo.bson.Document document = new de.bwaldvogel.mongo.bson.Document();
    for (int i = 0; i < pairs.length; i += 2) {
      document.append((String) pairs[i], pairs[i + 1]);
    }
    return document;
  }

  private static SecondaryIndex<Integer> index(String... keys) {
    List<IndexKey> indexKeys = new ArrayList<>();
    for (String key : keys) {
      indexKeys.add(new IndexKey(key, true));
    }
    return new SecondaryIndex<>("test", indexKeys);
  }

  @Test
  void servesEqualityInAndOneBoundOfARangeOnItsFirstKeyAtTopLevelOrInsideAnd() {
    SecondaryIndex<Integer> index = index("status", "createdAt");
    index.add(doc("_id", "a", "status", "PENDING", "createdAt", 5), 1, null);
    index.add(doc("_id", "b", "status", "SUCCESS", "createdAt", 6), 2, null);
    index.add(doc("_id", "c", "status", "PENDING", "createdAt", 7), 3, null);
    index.add(doc("_id", "d", "createdAt", 8), 4, null); // no status: not indexed

    assertThat(index.getPositions(doc("status", "PENDING", "createdAt", doc("$lt", 9)))).containsExactly(1, 3);
    assertThat(index.getPositions(doc("$and", List.of(doc("$and", List.of(doc("status", doc("$eq", "SUCCESS")))),
        doc("org", "o1"))))).containsExactly(2);
    assertThat(index.getPositions(doc("status", doc("$in", List.of("SUCCESS", "FAILED", "PENDING")))))
        .containsExactly(1, 2, 3);
    assertThat(index.getPositions(doc("status", doc("$gt", "PENDING")))).containsExactly(2);
    assertThat(index.getPositions(doc("status", doc("$gte", "PENDING", "$lt", "Z")))).containsExactly(1, 2, 3);
    assertThat(index.getPositions(doc("status", doc("$lte", "PENDING")))).containsExactly(1, 3);
    assertThat(index.getPositions(doc("status", "FAILED"))).isEmpty();
    assertThat(index.getCount()).isEqualTo(3);
  }

  @Test
  void leavesToTheScanWhatCouldMatchDocumentsItDoesNotHold() {
    SecondaryIndex<Integer> index = index("status");
    for (Object condition : List.of(doc("$exists", false), doc("$ne", "A"), doc("$nin", List.of("A")),
        doc("$not", doc("$eq", "A")), doc("$eq", doc("x", 1)), doc("$in", List.of("A", doc("x", 1))),
        Pattern.compile("^P"), List.of("A", "B"), doc("x", 1), doc())) {
      assertThat(index.canHandle(doc("status", condition))).as("%s", condition).isFalse();
    }
    assertThat(index.canHandle(doc("status", null))).isFalse();
    assertThat(index.canHandle(doc("other", "A"))).isFalse();
    assertThat(index.canHandle(doc("$or", List.of(doc("status", "A"), doc("status", "B"))))).isFalse();
    assertThat(index.canHandle(doc("createdAt", 1))).as("only the first key").isFalse();
    assertThatThrownBy(() -> index.getPositions(doc("other", "A"))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void indexesEachElementOfArraysAlongItsPathAndTreatsEqualNumbersOfEveryTypeAsOneKey() {
    SecondaryIndex<Integer> holds = index("holds.at");
    holds.add(doc("_id", "x", "holds", List.of(doc("at", 10), doc("at", 30))), 1, null);
    holds.add(doc("_id", "y", "holds", List.of(doc("at", 20))), 2, null);
    holds.add(doc("_id", "z", "holds", List.of()), 3, null);

    assertThat(holds.getPositions(doc("holds.at", doc("$lt", 15)))).containsExactly(1);
    assertThat(holds.getPositions(doc("holds.at", doc("$gte", 20)))).containsExactly(1, 2);
    assertThat(holds.getPositions(doc("holds.at", 20L))).containsExactly(2);
    assertThat(holds.getPositions(doc("holds.at", 30.0))).containsExactly(1);
    assertThat(holds.getCount()).isEqualTo(3);
  }

  @Test
  void stopsServingRatherThanAnswerWithoutADocumentWhoseValueItCannotOrder() {
    SecondaryIndex<Integer> index = index("at");
    index.add(doc("_id", "a", "at", Instant.EPOCH), 1, null);
    assertThat(index.canHandle(doc("at", doc("$gt", Instant.EPOCH)))).isTrue();
    // a query value it cannot order against its keys: every document it holds, for the store to filter
    assertThat(index.getPositions(doc("at", doc("$lt", new Date(0))))).containsExactly(1);

    index.add(doc("_id", "b", "at", new Date(0)), 2, null); // not a type the store itself produces

    assertThat(index.canHandle(doc("at", doc("$gt", Instant.EPOCH)))).isFalse();
  }

  @Test
  void followsUpdatesAndRemovalsAndReturnsTheRemovedPosition() {
    SecondaryIndex<Integer> index = index("pendingSince");
    // the store decodes BSON dates as Instants
    de.bwaldvogel.mongo.bson.Document pending = doc("_id", "a", "pendingSince", Instant.ofEpochMilli(1_000));
    index.add(pending, 7, null);
    index.add(doc("_id", "b", "pendingSince", Instant.ofEpochMilli(2_000)), 8, null);

    de.bwaldvogel.mongo.bson.Document cleared = doc("_id", "a");
    index.updateInPlace(pending, cleared, 7, null);
    assertThat(index.getPositions(doc("pendingSince", doc("$lt", Instant.ofEpochMilli(5_000))))).containsExactly(8);

    de.bwaldvogel.mongo.bson.Document again = doc("_id", "a", "pendingSince", Instant.ofEpochMilli(3_000));
    index.updateInPlace(cleared, again, 7, null);
    assertThat(index.getPositions(doc("pendingSince", doc("$lt", Instant.ofEpochMilli(5_000)))))
        .containsExactly(7, 8);

    assertThat(index.remove(again)).isEqualTo(7);
    assertThat(index.remove(doc("_id", "q"))).isNull();
    assertThat(index.getPositions(doc("pendingSince", doc("$gt", Instant.EPOCH)))).containsExactly(8);
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
        List<Document> documents = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
          Document document = new Document("_id", "d" + i).append("org", "o" + (i % 3))
              .append("status", List.of("PENDING", "SUCCESS", "FAILED").get(i % 3))
              .append("createdAt", new Date(1_000L * i)).append("n", i % 2 == 0 ? i : (long) i);
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

    SecondaryIndex<Object> index = new SecondaryIndex<>("organisationId_1", List.of(new IndexKey("organisationId", true)));
    assertThat(index.canHandle(doc("_id", "p-1").append("organisationId", "o"))).isFalse();
    assertThat(index.canHandle(doc("_id", doc("$in", List.of("p-1", "p-2"))).append("organisationId", "o"))).isFalse();
    assertThat(index.canHandle(doc("_id", null).append("organisationId", "o"))).isFalse();
    // a range on _id is no lookup: the organisation's bucket is the better start
    assertThat(index.canHandle(doc("_id", doc("$gt", "p-1")).append("organisationId", "o"))).isTrue();
    assertThat(index.canHandle(doc("organisationId", "o"))).isTrue();
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
}
