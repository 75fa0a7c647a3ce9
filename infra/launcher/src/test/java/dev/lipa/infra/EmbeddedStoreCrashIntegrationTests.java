package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Updates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store process loses nothing it answered: {@code kill -9} of {@link EmbeddedStore} under several writers, a
 * restart on the same file, every acknowledged document still there; and a store whose file can no longer be written
 * exits at once, non-zero, with one {@code store: FATAL} line, having lost nothing it answered either.
 */
class EmbeddedStoreCrashIntegrationTests {

  private static final int WRITERS = 8;

  @TempDir
  Path directory;

  @Test
  void aKilledStoreRestartedOnItsFileHasEveryWriteItAcknowledged() throws Exception {
    StoreProcess store = new StoreProcess(directory.resolve("lipa.mv"), directory.resolve("store.log"), "").start();
    Writers writers = new Writers(store.uri(), 1_000);
    try {
      for (int kill = 1; kill <= 3; kill++) {
        long before = writers.acknowledged.size();
        await().atMost(Duration.ofSeconds(60)).until(() -> writers.acknowledged.size() >= before + 300);
        store.kill();
        writers.failuresSeen.set(false);
        await().atMost(Duration.ofSeconds(30)).untilTrue(writers.failuresSeen); // the writers noticed the store go
        store.start();
      }
      long before = writers.acknowledged.size();
      await().atMost(Duration.ofSeconds(60)).until(() -> writers.acknowledged.size() >= before + 300);
    } finally {
      writers.stop();
      store.kill();
    }

    store.start();
    try {
      Set<String> stored = ids(store.uri());
      assertThat(writers.acknowledged).isNotEmpty();
      assertThat(missing(writers.acknowledged, stored)).isEmpty();
    } finally {
      store.stop();
    }
  }

  @Test
  void aKilledStoreWhoseFileWritesOverDeadChunksHasEveryWriteItAcknowledged() throws Exception {
    // a checkpoint every 20 ms and every document rewritten: chunks appended at the end of the file and written over
    // dead ones in its middle, with kills landing anywhere among them
    StoreProcess store = new StoreProcess(directory.resolve("lipa.mv"), directory.resolve("store.log"), "")
        .with("--checkpoint-ms", "20").start();
    Writers writers = new Writers(store.uri(), 1_000, true);
    try {
      for (int kill = 1; kill <= 3; kill++) {
        long before = writers.acknowledged.size();
        await().atMost(Duration.ofSeconds(90)).until(() -> writers.acknowledged.size() >= before + 3_000);
        store.kill();
        writers.failuresSeen.set(false);
        await().atMost(Duration.ofSeconds(30)).untilTrue(writers.failuresSeen);
        store.start();
      }
    } finally {
      writers.stop();
      store.kill();
    }

    store.start();
    try {
      assertThat(missing(writers.acknowledged, ids(store.uri()))).isEmpty();
    } finally {
      store.stop();
    }
  }

  @Test
  void aStoreThatCannotWriteItsFileExitsAtOnceWithOneFatalLineAndLosesNothingItAnswered() throws Exception {
    // no file may grow past 40 MB (RLIMIT_FSIZE; the JVM ignores SIGXFSZ, so the write fails with "File too
    // large"), the way a full disk fails a write: the write-ahead log's 32 MB segment fits, the H2 file soon does not
    Path file = directory.resolve("lipa.mv");
    Path log = directory.resolve("store.log");
    StoreProcess limited = new StoreProcess(file, log, "ulimit -f 40960").start();
    Writers writers = new Writers(limited.uri(), 10_000);
    int status;
    try {
      status = limited.awaitExit(Duration.ofSeconds(120));
    } finally {
      writers.stop();
    }

    assertThat(status).isEqualTo(EmbeddedStore.FATAL_STATUS);
    List<String> fatal = limited.log().lines().filter(line -> line.startsWith("store: FATAL")).toList();
    assertThat(fatal).singleElement().asString().startsWith("store: FATAL the H2 writer failed");
    assertThat(writers.acknowledged).isNotEmpty();

    StoreProcess unlimited = new StoreProcess(file, directory.resolve("after.log"), "").start();
    try {
      assertThat(missing(writers.acknowledged, ids(unlimited.uri()))).isEmpty();
    } finally {
      unlimited.stop();
    }
  }

  /** What was acknowledged and is not stored (a set difference: AssertJ's containsAll compares each with each). */
  private static Set<String> missing(Set<String> acknowledged, Set<String> stored) {
    Set<String> missing = new HashSet<>(acknowledged);
    missing.removeAll(stored);
    return missing;
  }

  private static Set<String> ids(String uri) {
    try (MongoClient client = MongoClients.create(uri)) {
      Set<String> ids = new HashSet<>();
      client.getDatabase("crash").getCollection("payments").find().projection(Projections.include("_id"))
          .forEach(document -> ids.add(document.getString("_id")));
      return ids;
    }
  }

  /** Threads that insert numbered documents until stopped, keeping the id of every insert the store acknowledged. */
  private static final class Writers {

    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final AtomicBoolean failuresSeen = new AtomicBoolean();
    private final AtomicBoolean writing = new AtomicBoolean(true);
    private final MongoClient client;
    private final List<CompletableFuture<Void>> threads = new ArrayList<>();

    Writers(String uri, int paddingBytes) {
      this(uri, paddingBytes, false);
    }

    /** With {@code rewriting}, each insert is followed by an update of the writer's previous document. */
    Writers(String uri, int paddingBytes, boolean rewriting) {
      client = MongoClients.create(uri);
      MongoCollection<Document> payments = client.getDatabase("crash").getCollection("payments");
      String padding = "x".repeat(paddingBytes);
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        threads.add(CompletableFuture.runAsync(() -> {
          for (long n = 0; writing.get(); n++) {
            String id = "w" + writer + "-" + n;
            try {
              payments.insertOne(new Document("_id", id).append("status", "PENDING").append("padding", padding));
              acknowledged.add(id);
              if (rewriting && n > 0) {
                payments.updateOne(Filters.eq("_id", "w" + writer + "-" + (n - 1)), Updates.set("status", "SETTLED"));
              }
            } catch (MongoException e) {
              failuresSeen.set(true); // not acknowledged: it may or may not be in the file
              pause();
            }
          }
        }, Thread::startVirtualThread));
      }
    }

    void stop() {
      writing.set(false);
      CompletableFuture.allOf(threads.toArray(CompletableFuture[]::new)).join();
      client.close();
    }

    private static void pause() {
      try {
        Thread.sleep(50); // the store is away: no point in spinning on it
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
