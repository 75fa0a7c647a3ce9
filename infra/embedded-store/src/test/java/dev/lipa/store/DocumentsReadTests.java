package dev.lipa.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.function.Supplier;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * On an on-disk store holding a million payments, every query the services run reads (matches against the query) only
 * the documents it returns plus a bounded margin, counted by the store itself ({@code serverStatus().lipa
 * .documentsExamined}); and reopening the file builds no index and reads no document.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentsReadTests {

  private static final int DOCUMENTS = Integer.getInteger("lipa.store.documents-read.documents", 1_000_000);
  private static final int SMALL_ORGANISATIONS = 100;
  private static final int SMALL_SIZE = 1_000;
  private static final long T0 = 1_700_000_000_000L;

  @TempDir
  static Path directory;

  private MongoServer server;
  private MongoClient client;
  private MongoCollection<Document> pushes;

  @BeforeAll
  void fillAStoreWithAMillionPayments() {
    open(false);
    MongoDatabase database = client.getDatabase("lipa-collections");
    pushes = database.getCollection("stk_pushes");
    pushes.createIndex(Indexes.ascending("id"), new IndexOptions().unique(true));
    pushes.createIndex(Indexes.ascending("referenceKey"), new IndexOptions().unique(true).sparse(true));
    pushes.createIndex(Indexes.ascending("idempotencyKey"), new IndexOptions().unique(true).sparse(true));
    pushes.createIndex(Indexes.compoundIndex(Indexes.ascending("organisationId"), Indexes.descending("createdAt")));
    pushes.createIndex(Indexes.compoundIndex(Indexes.ascending("organisationId"), Indexes.ascending("status"),
        Indexes.descending("createdAt")));
    pushes.createIndex(Indexes.ascending("status", "createdAt"));
    pushes.createIndex(Indexes.ascending("outboxPendingSince"), new IndexOptions().sparse(true));
    List<Document> batch = new ArrayList<>();
    for (int i = 0; i < DOCUMENTS; i++) {
      batch.add(push(i));
      if (batch.size() == 10_000) {
        pushes.insertMany(batch);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      pushes.insertMany(batch);
    }
  }

  /**
   * Push {@code i}: one large merchant holds most, a hundred small ones 1,000 each; one in a hundred is still
   * pending, one in a thousand has an outbox event waiting, one in ten a reference.
   */
  private static Document push(int i) {
    boolean small = i < SMALL_ORGANISATIONS * SMALL_SIZE;
    String organisation = small ? "org-" + i % SMALL_ORGANISATIONS : "org-big";
    Document push = new Document("_id", "p-" + i).append("id", (long) i).append("organisationId", organisation)
        .append("status", i % 100 == 0 ? "PENDING" : i % 7 == 0 ? "FAILED" : "SUCCESS")
        .append("amount", 100 + i % 1000).append("phoneNumber", "2547" + (10_000_000 + i % 5_000))
        .append("createdAt", new Date(T0 + i * 10L));
    if (i % 10 == 0) {
      push.append("referenceKey", organisation + ":ref-" + i);
    }
    if (i % 1000 == 0) {
      push.append("outboxPendingSince", new Date(T0 + i * 10L));
    }
    return push;
  }

  private void open(boolean reopen) {
    MongoBackend backend = StoreBackends.h2(directory.resolve("million.mv"));
    server = new MongoServer(backend);
    InetSocketAddress address = server.bind();
    client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort());
    pushes = client.getDatabase("lipa-collections").getCollection("stk_pushes");
  }

  @AfterAll
  void close() {
    client.close();
    server.shutdownNow();
  }

  private long indexBuilds() {
    Document status = client.getDatabase("admin").runCommand(new Document("serverStatus", 1));
    return ((Number) status.get("lipa", Document.class).get("indexBuildsAtOpen")).longValue();
  }

  /** Reopening the file builds no index (they are in it) and reads no document; the lists read a page again. */
  @Test
  void reopensWithoutBuildingAnIndexOrReadingADocument() {
    long builds = indexBuilds();
    client.close();
    server.shutdown();
    open(true);
    assertThat(indexBuilds()).isEqualTo(builds);
    assertThat(examined()).isZero();
    assertThat(examinedBy(() -> pushes.find(Filters.eq("organisationId", "org-big"))
        .sort(Sorts.descending("createdAt", "id")).limit(20).into(new ArrayList<>()), 20)).isLessThanOrEqualTo(21);
  }

  private long examined() {
    Document status = client.getDatabase("admin").runCommand(new Document("serverStatus", 1));
    return ((Number) status.get("lipa", Document.class).get("documentsExamined")).longValue();
  }

  /** Runs the query and returns how many documents the store matched against it. */
  private long examinedBy(Supplier<List<Document>> query, int expected) {
    long before = examined();
    List<Document> found = query.get();
    long read = examined() - before;
    assertThat(found).hasSize(expected);
    return read;
  }

  @Test
  void listsAMerchantsNewestPushesFilteredAndPagedReadingThePageOnly() {
    Bson big = Filters.eq("organisationId", "org-big");
    assertThat(examinedBy(() -> pushes.find(big).sort(Sorts.descending("createdAt", "id")).limit(20)
        .into(new ArrayList<>()), 20)).isLessThanOrEqualTo(21);
    assertThat(examinedBy(() -> pushes.find(Filters.and(big, Filters.eq("status", "FAILED")))
        .sort(Sorts.descending("createdAt", "id")).skip(40).limit(20).into(new ArrayList<>()), 20))
        .isLessThanOrEqualTo(61);
    Date to = new Date(T0 + 500_000 * 10L);
    assertThat(examinedBy(() -> pushes.find(Filters.and(big, Filters.gte("createdAt", new Date(T0)),
            Filters.lte("createdAt", to))).sort(Sorts.descending("createdAt", "id")).limit(50)
        .into(new ArrayList<>()), 50)).isLessThanOrEqualTo(51);
    List<Document> newest = pushes.find(big).sort(Sorts.descending("createdAt", "id")).limit(3)
        .into(new ArrayList<>());
    assertThat(newest).extracting(d -> d.get("_id"))
        .containsExactly("p-" + (DOCUMENTS - 1), "p-" + (DOCUMENTS - 2), "p-" + (DOCUMENTS - 3));
    // a small merchant's whole history, and a filter no index has (the phone): the merchant's documents, no more
    assertThat(examinedBy(() -> pushes.find(Filters.eq("organisationId", "org-7"))
        .sort(Sorts.descending("createdAt", "id")).into(new ArrayList<>()), SMALL_SIZE)).isEqualTo(SMALL_SIZE);
  }

  /**
   * The lists' next page from a cursor (createdAt, id), as the STK and payout stores ask it: the pushes strictly after
   * the position, newest first. The upper bound on createdAt ranges the (organisation, createdAt) index; the tie on id
   * is matched, so the page and the cursor's own document are all that is read.
   */
  @Test
  void readsTheNextPageFromACursorOnly() {
    int last = DOCUMENTS - 1_000;
    Date at = new Date(T0 + last * 10L);
    Bson afterCursor = Filters.and(Filters.eq("organisationId", "org-big"), Filters.lte("createdAt", at),
        Filters.or(Filters.lt("createdAt", at),
            Filters.and(Filters.eq("createdAt", at), Filters.lt("id", (long) last))));
    List<Document> page = new ArrayList<>();

    long read = examinedBy(() -> {
      page.addAll(pushes.find(afterCursor).sort(Sorts.descending("createdAt", "id")).limit(21)
          .into(new ArrayList<>()));
      return page;
    }, 21);

    assertThat(read).isLessThanOrEqualTo(23);
    assertThat(page.getFirst().get("_id")).isEqualTo("p-" + (last - 1));
    assertThat(page.getLast().get("_id")).isEqualTo("p-" + (last - 21));
  }

  @Test
  void sweepsReadWhatTheyReturn() {
    Date cutoff = new Date(T0 + 600_000 * 10L);
    assertThat(examinedBy(() -> pushes.find(Filters.and(Filters.eq("status", "PENDING"), Filters.lt("createdAt",
        cutoff))).projection(Projections.exclude("outbox")).sort(Sorts.ascending("createdAt")).limit(100)
        .into(new ArrayList<>()), 100)).isLessThanOrEqualTo(100);
    assertThat(examinedBy(() -> pushes.find(Filters.lt("outboxPendingSince", cutoff)).limit(100)
        .into(new ArrayList<>()), 100)).isLessThanOrEqualTo(100);
  }

  @Test
  void looksUpByEveryKeyReadingOneDocument() {
    int i = DOCUMENTS - 10;
    assertThat(examinedBy(() -> pushes.find(Filters.and(Filters.eq("_id", "p-" + i),
        Filters.eq("organisationId", "org-big"))).into(new ArrayList<>()), 1)).isEqualTo(1);
    assertThat(examinedBy(() -> pushes.find(Filters.eq("id", (long) i)).into(new ArrayList<>()), 1)).isEqualTo(1);
    assertThat(examinedBy(() -> pushes.find(Filters.eq("referenceKey", "org-big:ref-" + i)).into(new ArrayList<>()),
        1)).isEqualTo(1);
    // the lookup by referenceId (GET .../single?referenceId=) checks the organisation as well
    assertThat(examinedBy(() -> pushes.find(Filters.and(Filters.eq("referenceKey", "org-big:ref-" + i),
        Filters.eq("organisationId", "org-big"))).into(new ArrayList<>()), 1)).isEqualTo(1);
    String status = push(i).getString("status");
    long updated = examined();
    assertThat(pushes.updateOne(Filters.and(Filters.eq("_id", "p-" + i), Filters.eq("status", status)),
        new Document("$set", new Document("status", status))).getMatchedCount()).isEqualTo(1);
    assertThat(examined() - updated).isEqualTo(1);
  }
}
