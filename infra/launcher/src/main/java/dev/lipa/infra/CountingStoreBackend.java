package dev.lipa.infra;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import de.bwaldvogel.mongo.wire.message.MongoQuery;
import io.netty.channel.Channel;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps the embedded store's backend to count the write statements it receives, per database, where they happen (not
 * from the services' intentions), and adds them to the {@code serverStatus} answer: MongoDB-style {@code opcounters}
 * (insert/update/delete statements, queries, other commands; as on a real MongoDB, {@code findAndModify} is a command
 * there) and {@code lipaWrites}, one document per database with {@code insert}, {@code update}, {@code delete} and
 * {@code findAndModify}. {@code ./platform bench} reads them before and after a run. It also logs slow commands.
 */
public final class CountingStoreBackend implements MongoBackend {

  private static final List<String> KINDS = List.of("insert", "update", "delete", "findAndModify");
  private static final Logger log = LoggerFactory.getLogger(CountingStoreBackend.class);
  /**
   * Commands that take at least this long (system property {@code lipa.store.slow-command-ms}, 0 turns it off) are
   * logged with their text, like MongoDB's slow query log. The time includes waiting for the collection's lock, so a
   * scan shows up both as itself and in the commands it held up.
   */
  private static final long SLOW_NANOS = TimeUnit.MILLISECONDS.toNanos(Long.getLong("lipa.store.slow-command-ms", 100));

  private final MongoBackend backend;
  private final Map<String, Map<String, LongAdder>> writes = new ConcurrentHashMap<>();
  private final LongAdder queries = new LongAdder();
  private final LongAdder commands = new LongAdder();

  public CountingStoreBackend(MongoBackend backend) {
    this.backend = backend;
  }

  @Override
  public Document handleMessage(MongoMessage message) {
    Document command = message.getDocument();
    String name = command.keySet().stream().findFirst().orElse("");
    if (name.equalsIgnoreCase("serverStatus")) {
      return withCounters(backend.handleMessage(message));
    }
    count(message.getDatabaseName(), name, command);
    long started = System.nanoTime();
    Document answer = backend.handleMessage(message);
    long took = System.nanoTime() - started;
    if (SLOW_NANOS > 0 && took >= SLOW_NANOS) {
      String text = command.toString();
      log.warn("slow command: {} ms in {}: {}", TimeUnit.NANOSECONDS.toMillis(took), message.getDatabaseName(),
          text.length() > 600 ? text.substring(0, 600) + "..." : text);
    }
    return answer;
  }

  @Override
  public Document handleCommand(Channel channel, String database, String command, Document query) {
    if (command.equalsIgnoreCase("serverStatus")) {
      return withCounters(backend.handleCommand(channel, database, command, query));
    }
    count(database, command, query);
    return backend.handleCommand(channel, database, command, query);
  }

  private void count(String database, String name, Document command) {
    switch (name) {
      case "insert" -> add(database, "insert", size(command.get("documents")));
      case "update" -> add(database, "update", size(command.get("updates")));
      case "delete" -> add(database, "delete", size(command.get("deletes")));
      case "findAndModify", "findandmodify" -> add(database, "findAndModify", 1);
      case "find", "aggregate", "count", "getMore" -> queries.increment();
      default -> commands.increment();
    }
  }

  private static int size(Object statements) {
    return statements instanceof Collection<?> list ? list.size() : 1;
  }

  private void add(String database, String kind, int statements) {
    writes.computeIfAbsent(database, d -> {
      Map<String, LongAdder> counters = new ConcurrentHashMap<>();
      KINDS.forEach(k -> counters.put(k, new LongAdder()));
      return counters;
    }).get(kind).add(statements);
  }

  private Document withCounters(Document status) {
    long insert = 0;
    long update = 0;
    long delete = 0;
    long findAndModify = 0;
    Document perDatabase = new Document();
    for (Map.Entry<String, Map<String, LongAdder>> db : new TreeMap<>(writes).entrySet()) {
      Document counters = new Document();
      KINDS.forEach(k -> counters.put(k, db.getValue().get(k).sum()));
      perDatabase.put(db.getKey(), counters);
      insert += db.getValue().get("insert").sum();
      update += db.getValue().get("update").sum();
      delete += db.getValue().get("delete").sum();
      findAndModify += db.getValue().get("findAndModify").sum();
    }
    Document opcounters = new Document();
    opcounters.put("insert", insert);
    opcounters.put("query", queries.sum());
    opcounters.put("update", update);
    opcounters.put("delete", delete);
    opcounters.put("getmore", 0L);
    opcounters.put("command", commands.sum() + findAndModify);
    Document answer = new Document(status);
    answer.put("opcounters", opcounters);
    answer.put("lipaWrites", perDatabase);
    return answer;
  }

  @Override
  public void handleClose(Channel channel) {
    backend.handleClose(channel);
  }

  @Override
  public QueryResult handleQuery(MongoQuery query) {
    queries.increment();
    return backend.handleQuery(query);
  }

  @Override
  public void dropDatabase(String database) {
    backend.dropDatabase(database);
  }

  @Override
  public Collection<Document> getCurrentOperations(MongoQuery query) {
    return backend.getCurrentOperations(query);
  }

  @Override
  public Document getServerStatus() {
    return withCounters(backend.getServerStatus());
  }

  @Override
  public void close() {
    backend.close();
  }

  @Override
  public void closeCursors(List<Long> cursorIds) {
    backend.closeCursors(cursorIds);
  }

  @Override
  public Clock getClock() {
    return backend.getClock();
  }

  @Override
  public void enableOplog() {
    backend.enableOplog();
  }

  @Override
  public void disableOplog() {
    backend.disableOplog();
  }

  @Override
  public MongoDatabase resolveDatabase(String database) {
    return backend.resolveDatabase(database);
  }

  @Override
  public MongoBackend version(MongoVersion version) {
    backend.version(version);
    return this;
  }
}
