package dev.lipa.common.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoServerUnavailableException;
import com.mongodb.MongoSocketOpenException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoSocketWriteException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteError;
import com.mongodb.bulk.WriteConcernError;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ServerId;
import java.io.IOException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Which failures mean the store is away (a 503) and which are faults of the request or the code (a 500). */
class StoreUnavailableTests {

  private static final ServerAddress STORE = new ServerAddress("127.0.0.1", 27017);

  static Stream<Named<Throwable>> storeAway() {
    return Stream.of(
        Named.of("a read cut short by the store's death",
            new MongoSocketReadException("Prematurely reached end of stream", STORE)),
        Named.of("a write to a closed socket", new MongoSocketWriteException("Exception sending message", STORE,
            new IOException("Broken pipe"))),
        Named.of("a refused connection", new MongoSocketOpenException("Exception opening socket", STORE,
            new ConnectException("Connection refused"))),
        Named.of("no server within the selection timeout",
            new MongoTimeoutException("Timed out while waiting for a server")),
        Named.of("the pool cleared after a connection failed", new MongoConnectionPoolClearedException(
            new ServerId(new ClusterId(), STORE), new MongoSocketReadException("closed", STORE))),
        Named.of("a server that is no longer there", new MongoServerUnavailableException("closed")),
        Named.of("an interrupted wait for a connection", new MongoInterruptedException("interrupted", null)),
        Named.of("a primary that stepped down", new MongoNotPrimaryException(new BsonDocument("code",
            new BsonInt32(10107)).append("errmsg", new BsonString("not primary")), STORE)),
        Named.of("a majority not reached", new MongoWriteConcernException(new WriteConcernError(64,
            "WriteConcernFailed", "waiting for replication timed out", new BsonDocument()), STORE)),
        Named.of("a query over its time limit",
            new MongoExecutionTimeoutException(50, "operation exceeded time limit")),
        Named.of("the store shutting down (91)", command(91, "the store is shutting down")),
        Named.of("the embedded store refusing after a fatal failure",
            command(91, "store: FATAL the H2 writer failed: MVStoreException")),
        Named.of("a store failure inside another exception",
            new CompletionException(new IllegalStateException("wrapped",
                new MongoSocketReadException("Prematurely reached end of stream", STORE)))));
  }

  static Stream<Named<Throwable>> notTheStore() {
    return Stream.of(
        Named.of("a duplicate key", new MongoWriteException(new WriteError(11000, "E11000 duplicate key",
            new BsonDocument()), STORE)),
        Named.of("a bad command", command(2, "BadValue")),
        Named.of("a bug", new IllegalStateException("bug")),
        Named.of("a null pointer", new NullPointerException()));
  }

  @ParameterizedTest
  @MethodSource("storeAway")
  void isTheStoreBeingAway(Throwable failure) {
    assertThat(StoreUnavailable.causedBy(failure)).isTrue();
  }

  @ParameterizedTest
  @MethodSource("notTheStore")
  void isNotTheStoreBeingAway(Throwable failure) {
    assertThat(StoreUnavailable.causedBy(failure)).isFalse();
  }

  private static MongoCommandException command(int code, String message) {
    return new MongoCommandException(new BsonDocument("ok", new BsonInt32(0)).append("code", new BsonInt32(code))
        .append("errmsg", new BsonString(message)), STORE);
  }
}
