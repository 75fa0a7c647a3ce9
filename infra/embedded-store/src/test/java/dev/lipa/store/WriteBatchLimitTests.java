package dev.lipa.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.bson.Document;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A write command of more statements than the store advertises as {@code maxWriteBatchSize} is refused whole, on both
 * backends, over a real socket: sent as a raw command, past the driver that would have split it. The driver's own
 * {@code insertMany} of more is split and written in full.
 */
class WriteBatchLimitTests {

  @TempDir
  static Path directory;

  static Stream<Function<Path, MongoBackend>> backends() {
    return Stream.of(path -> StoreBackends.memory(), path -> StoreBackends.h2(path.resolve("limit.mv")));
  }

  @ParameterizedTest
  @MethodSource("backends")
  void aCommandOverTheAdvertisedBatchSizeIsRefusedAndChangesNothing(Function<Path, MongoBackend> backend) {
    MongoServer server = new MongoServer(backend.apply(directory));
    server.bind(new InetSocketAddress("127.0.0.1", 0));
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + server.getLocalAddress().getPort())) {
      MongoDatabase database = client.getDatabase("limits");
      // what the driver reads at its handshake (the store speaks wire version 8: isMaster, not hello)
      Document handshake = database.runCommand(new Document("isMaster", 1));
      assertThat(handshake.getInteger("maxWriteBatchSize")).isEqualTo(WriteBatches.MAX_STATEMENTS);
      MongoCollection<Document> pushes = database.getCollection("pushes");
      pushes.drop();
      pushes.insertMany(documents("kept", 10));

      for (Document command : List.of(
          new Document("insert", "pushes").append("documents", documents("over", WriteBatches.MAX_STATEMENTS + 1)),
          // the server takes a command's name in any case: so must the limit
          new Document("INSERT", "pushes").append("documents", documents("upper", WriteBatches.MAX_STATEMENTS + 1)),
          new Document("Update", "pushes").append("updates", statements(WriteBatches.MAX_STATEMENTS + 1,
              n -> new Document("q", new Document("_id", "kept-" + n % 10))
                  .append("u", new Document("$set", new Document("status", "CHANGED"))))),
          new Document("dElEtE", "pushes").append("deletes", statements(WriteBatches.MAX_STATEMENTS + 1,
              n -> new Document("q", new Document("_id", "kept-" + n % 10)).append("limit", 1))),
          new Document("update", "pushes").append("updates", statements(WriteBatches.MAX_STATEMENTS + 1,
              n -> new Document("q", new Document("_id", "kept-" + n % 10))
                  .append("u", new Document("$set", new Document("status", "CHANGED"))))),
          new Document("delete", "pushes").append("deletes", statements(WriteBatches.MAX_STATEMENTS + 1,
              n -> new Document("q", new Document("_id", "kept-" + n % 10)).append("limit", 1))))) {
        assertThatThrownBy(() -> database.runCommand(command))
            .isInstanceOfSatisfying(MongoCommandException.class, e -> {
              assertThat(e.getErrorCode()).isEqualTo(WriteBatches.INVALID_LENGTH);
              assertThat(e.getErrorMessage()).contains("Got 1001 operations");
            });
      }
      assertThat(pushes.countDocuments()).isEqualTo(10);
      assertThat(pushes.countDocuments(new Document("status", "CHANGED"))).isZero();

      // the limit itself is a command the store takes, and the driver splits what is over it
      database.runCommand(new Document("insert", "pushes")
          .append("documents", documents("exact", WriteBatches.MAX_STATEMENTS)));
      pushes.insertMany(documents("split", 2_500));
      assertThat(pushes.countDocuments()).isEqualTo(10 + WriteBatches.MAX_STATEMENTS + 2_500);
    } finally {
      server.shutdownNow();
    }
  }

  private static List<Document> documents(String prefix, int count) {
    return statements(count, n -> new Document("_id", prefix + "-" + n).append("status", "PENDING"));
  }

  private static List<Document> statements(int count, java.util.function.IntFunction<Document> statement) {
    List<Document> statements = new ArrayList<>(count);
    for (int n = 0; n < count; n++) {
      statements.add(statement.apply(n));
    }
    return statements;
  }
}
