package dev.lipa.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.mongodb.MongoException;
import com.mongodb.MongoServerException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.Document;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the on-disk store can no longer write its file it says so once, in one line, and refuses every command from
 * then on: it never answers some requests while it loses others.
 */
class StoreFailureIntegrationTests {

  @TempDir
  Path directory;

  private final List<String> fatalLines = new CopyOnWriteArrayList<>();

  @Test
  void aPanickedH2WriterIsFatalOnceAndEveryLaterCommandIsRefused() {
    withStore((store, pushes) -> {
      pushes.insertOne(new Document("_id", "p-1"));

      assertThatThrownBy(() -> store.panic(DataUtils.newMVStoreException(DataUtils.ERROR_WRITING_FAILED,
          "injected: writing to the file failed"))).isInstanceOf(RuntimeException.class);

      assertThat(fatalLines).singleElement().asString()
          .startsWith("store: FATAL the H2 writer failed").contains("injected: writing to the file failed");
      // ShutdownInProgress (91): the services answer 503, as for a store that is away
      assertThatThrownBy(() -> pushes.insertOne(new Document("_id", "p-2")))
          .isInstanceOfSatisfying(MongoServerException.class, e -> assertThat(e.getCode()).isEqualTo(91))
          .hasMessageContaining("store: FATAL");
      // ... and the driver, told the server is shutting down, stops sending it anything (its heartbeats are refused
      // too)
      assertThatThrownBy(() -> pushes.find(Filters.eq("_id", "p-1")).first()).isInstanceOf(MongoException.class);
      assertThat(fatalLines).hasSize(1);
    });
  }

  @Test
  void aFileClosedUnderTheStoreFailsTheNextCheckpointAndIsFatal() {
    withStore((store, pushes) -> {
      pushes.insertOne(new Document("_id", "p-1"));

      store.getFileStore().close(); // the file's channel, closed under the store: its next commit fails
      // the write is answered once the write-ahead log holds it; the checkpoint after it (within a second) fails
      pushes.insertOne(new Document("_id", "p-2"));
      await().atMost(Duration.ofSeconds(10)).until(() -> !fatalLines.isEmpty());

      assertThat(fatalLines).singleElement().asString().startsWith("store: FATAL");
      assertThatThrownBy(() -> pushes.insertOne(new Document("_id", "p-3")))
          .isInstanceOf(MongoException.class).hasMessageContaining("store: FATAL");
      assertThatThrownBy(() -> pushes.countDocuments()).isInstanceOf(MongoException.class);
    });
    // what the log answered is not lost with the file's failed commit
    assertThat(StoreFiles.ids(directory.resolve("store.mv"), "failing", "pushes")).containsExactlyInAnyOrder("p-1",
        "p-2");
  }

  @Test
  void aStoreClosedUnderTheBackendIsFatalAtTheNextCommand() {
    withStore((store, pushes) -> {
      pushes.insertOne(new Document("_id", "p-1"));

      store.closeImmediately();

      assertThatThrownBy(() -> pushes.find(Filters.eq("_id", "p-1")).first())
          .isInstanceOf(MongoException.class).hasMessageContaining("store: FATAL");
      await().atMost(Duration.ofSeconds(10)).until(() -> !fatalLines.isEmpty());
      assertThat(fatalLines).singleElement().asString().startsWith("store: FATAL");
    });
  }

  @Test
  void aCleanShutdownIsNoFailure() {
    withStore((store, pushes) -> pushes.insertOne(new Document("_id", "p-1")));

    assertThat(fatalLines).isEmpty();
    assertThat(StoreFiles.ids(directory.resolve("store.mv"), "failing", "pushes")).containsExactly("p-1");
  }

  private void withStore(StoreWork work) {
    MongoBackend backend = StoreBackends.h2(directory.resolve("store.mv"), Durability.DEFAULT,
        (line, cause) -> fatalLines.add(line));
    MongoServer server = new MongoServer(backend);
    server.bind(new InetSocketAddress("127.0.0.1", 0), 1, 4);
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + server.getLocalAddress().getPort()
        + "/?retryWrites=false&retryReads=false&serverSelectionTimeoutMS=2000")) {
      work.accept(((H2Backend) backend).getMvStore(), client.getDatabase("failing").getCollection("pushes"));
    } finally {
      server.shutdownNow();
    }
  }

  @FunctionalInterface
  private interface StoreWork {
    void accept(MVStore store, MongoCollection<Document> pushes);
  }
}
