package dev.lipa.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.memory.index.MemoryUniqueIndex;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PinnedKeyIndexTests {

  @TempDir
  static Path directory;

  @Test
  void servesAQueryThatPinsEveryKeyAndNamesMoreFields() {
    PinnedKeyIndex<Integer> index = idIndex();
    index.add(new de.bwaldvogel.mongo.bson.Document("_id", "a").append("org", "o1"), 7, null);
    index.add(new de.bwaldvogel.mongo.bson.Document("_id", "b").append("org", "o2"), 9, null);

    de.bwaldvogel.mongo.bson.Document query = new de.bwaldvogel.mongo.bson.Document("_id", "b").append("org", "o2")
        .append("status", new de.bwaldvogel.mongo.bson.Document("$ne", "DONE"));
    assertThat(index.canHandle(query)).isTrue();
    assertThat(index.getPositions(query)).containsExactly(9);
    // the driver writes Filters.and(...) as a top-level $and, nested ones included
    de.bwaldvogel.mongo.bson.Document and = new de.bwaldvogel.mongo.bson.Document("$and", List.of(
        new de.bwaldvogel.mongo.bson.Document("$and", List.of(new de.bwaldvogel.mongo.bson.Document("_id", "a"))),
        new de.bwaldvogel.mongo.bson.Document("org", "o1")));
    assertThat(index.canHandle(and)).isTrue();
    assertThat(index.getPositions(and)).containsExactly(7);
    // the plain query the wrapped index served already is still served the same way
    assertThat(index.getPositions(new de.bwaldvogel.mongo.bson.Document("_id", "a"))).containsExactly(7);
  }

  @Test
  void leavesToTheCollectionScanWhatTheIndexCannotNarrow() {
    PinnedKeyIndex<Integer> index = idIndex();
    assertThat(index.canHandle(new de.bwaldvogel.mongo.bson.Document("org", "o1"))).isFalse();
    assertThat(index.canHandle(new de.bwaldvogel.mongo.bson.Document("_id",
        new de.bwaldvogel.mongo.bson.Document("$gt", "a")).append("org", "o1"))).isFalse();
    // an $or offers no condition that every answer meets
    assertThat(index.canHandle(new de.bwaldvogel.mongo.bson.Document("$or", List.of(
        new de.bwaldvogel.mongo.bson.Document("_id", "a"), new de.bwaldvogel.mongo.bson.Document("org", "o1")))))
        .isFalse();
    assertThatThrownBy(() -> index.getPositions(new de.bwaldvogel.mongo.bson.Document("org", "o1")))
        .isInstanceOf(IllegalStateException.class);
  }

  static Stream<Arguments> backends() {
    return Stream.of(Arguments.of("memory", StoreBackends.memory()),
        Arguments.of("h2", StoreBackends.h2(directory.resolve("pinned.mv"))));
  }

  /** Over the wire, with the driver: every answer is the one the whole query asks for, on both backends. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void answersTheWholeQueryThroughTheDriver(String name, MongoBackend backend) {
    MongoServer server = new MongoServer(backend);
    InetSocketAddress address = server.bind();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort())) {
      MongoCollection<Document> pushes = client.getDatabase("pinned").getCollection("pushes");
      pushes.createIndex(Indexes.ascending("ref"), new IndexOptions().unique(true).sparse(true));
      List<Document> documents = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        Document document = new Document("_id", "p" + i).append("org", "o" + (i % 3)).append("status", "PENDING")
            .append("outbox", List.of(new Document("eventId", "e" + i)));
        if (i % 2 == 0) {
          document.append("ref", "o" + (i % 3) + "/r" + i);
        }
        documents.add(document);
      }
      pushes.insertMany(documents);

      // tenant-scoped reads: the right organisation finds the push, another finds nothing
      assertThat(pushes.find(Filters.and(Filters.eq("_id", "p10"), Filters.eq("org", "o1"))).first())
          .extracting(d -> d.get("_id")).isEqualTo("p10");
      assertThat(pushes.find(Filters.and(Filters.eq("_id", "p10"), Filters.eq("org", "o2"))).first()).isNull();
      assertThat(pushes.find(Filters.and(Filters.eq("ref", "o2/r20"), Filters.eq("org", "o2"))).first())
          .extracting(d -> d.get("_id")).isEqualTo("p20");

      // compare-and-set: applies once, then the changed status no longer matches
      var pending = Filters.and(Filters.eq("_id", "p11"), Filters.eq("org", "o2"), Filters.eq("status", "PENDING"));
      Document after = pushes.findOneAndUpdate(pending, Updates.set("status", "SUCCESS"),
          new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
      assertThat(after.getString("status")).isEqualTo("SUCCESS");
      assertThat(pushes.findOneAndUpdate(pending, Updates.set("status", "FAILED"))).isNull();
      assertThat(pushes.find(Filters.eq("_id", "p11")).first().getString("status")).isEqualTo("SUCCESS");

      // the outbox acknowledgement's guarded update: matches only while the array holds exactly those events
      var exact = Filters.and(Filters.eq("_id", "p12"), Filters.size("outbox", 1),
          Filters.all("outbox.eventId", List.of("e12")));
      assertThat(pushes.updateOne(Filters.and(Filters.eq("_id", "p12"), Filters.size("outbox", 2)),
          Updates.unset("outbox")).getMatchedCount()).isZero();
      assertThat(pushes.updateOne(exact, Updates.unset("outbox")).getModifiedCount()).isEqualTo(1);
      assertThat(pushes.find(Filters.eq("_id", "p12")).first().containsKey("outbox")).isFalse();

      // a unique key is still enforced, by inserts and by updates
      assertThatThrownBy(() -> pushes.insertOne(new Document("_id", "p13").append("org", "o1")))
          .isInstanceOfSatisfying(MongoWriteException.class,
              e -> assertThat(e.getError().getCategory()).isEqualTo(ErrorCategory.DUPLICATE_KEY));
      assertThatThrownBy(() -> pushes.updateOne(Filters.and(Filters.eq("_id", "p14"), Filters.eq("org", "o2")),
          Updates.set("ref", "o0/r0"))).isInstanceOf(MongoWriteException.class);

      // scans (no unique key pinned) still answer as before
      assertThat(pushes.countDocuments(Filters.eq("org", "o0"))).isEqualTo(167);
      assertThat(pushes.deleteOne(Filters.and(Filters.eq("_id", "p15"), Filters.eq("org", "o9"))).getDeletedCount())
          .isZero();
      assertThat(pushes.deleteOne(Filters.and(Filters.eq("_id", "p15"), Filters.eq("org", "o0"))).getDeletedCount())
          .isEqualTo(1);
      assertThat(pushes.countDocuments()).isEqualTo(499);
    } finally {
      server.shutdownNow();
    }
  }

  private static PinnedKeyIndex<Integer> idIndex() {
    return new PinnedKeyIndex<>("_id_", new MemoryUniqueIndex("_id_", List.of(new IndexKey("_id", true)), false),
        false, null);
  }
}
