package dev.lipa.infra.bench;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.bson.Document;

/**
 * Reads, from the outside, what the platform did: the store's write counters ({@code serverStatus}), the broker's end
 * offsets per topic, the resident memory and CPU time of every local process, and which store backend runs.
 */
final class PlatformProbe implements AutoCloseable {

  /** Write statements per database as the store counted them; empty when the store does not report them. */
  record StoreWrites(Map<String, Long> perDatabase, boolean available) {

    long total() {
      return perDatabase.values().stream().mapToLong(Long::longValue).sum();
    }

    StoreWrites minus(StoreWrites before) {
      Map<String, Long> diff = new TreeMap<>();
      perDatabase.forEach((db, n) -> diff.put(db, n - before.perDatabase.getOrDefault(db, 0L)));
      diff.values().removeIf(n -> n == 0);
      return new StoreWrites(diff, available && before.available);
    }
  }

  private final MongoClient mongo;
  private final Admin kafka;
  private final Path var;

  PlatformProbe(String mongoUri, String kafkaBootstrap, Path var) {
    this.mongo = MongoClients.create(mongoUri);
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrap);
    this.kafka = Admin.create(properties);
    this.var = var;
  }

  /**
   * The store's write statements (insert, update, delete, findAndModify) per database: the embedded store reports
   * them as {@code lipaWrites}; a real MongoDB only as server-wide {@code opcounters} (where findAndModify is hidden
   * among the commands), reported under the name {@code (server)}.
   */
  StoreWrites storeWrites() {
    Document status = mongo.getDatabase("admin").runCommand(new Document("serverStatus", 1));
    Map<String, Long> perDatabase = new TreeMap<>();
    Document lipa = status.get("lipaWrites", Document.class);
    if (lipa != null) {
      lipa.forEach((db, counters) -> {
        Document c = (Document) counters;
        perDatabase.put(db, c.values().stream().mapToLong(v -> ((Number) v).longValue()).sum());
      });
      return new StoreWrites(perDatabase, true);
    }
    Document opcounters = status.get("opcounters", Document.class);
    if (opcounters == null) {
      return new StoreWrites(perDatabase, false);
    }
    perDatabase.put("(server)", Stream.of("insert", "update", "delete")
        .mapToLong(k -> ((Number) opcounters.get(k)).longValue()).sum());
    return new StoreWrites(perDatabase, true);
  }

  /** The sum of the end offsets of every partition, per topic (internal topics left out): the records written. */
  Map<String, Long> topicEndOffsets() throws InterruptedException, ExecutionException, TimeoutException {
    Collection<String> topics = kafka.listTopics().names().get(15, TimeUnit.SECONDS);
    Map<String, TopicDescription> descriptions = kafka.describeTopics(topics).allTopicNames()
        .get(15, TimeUnit.SECONDS);
    Map<TopicPartition, OffsetSpec> ask = descriptions.values().stream()
        .flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
        .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> offsets = kafka.listOffsets(ask).all()
        .get(15, TimeUnit.SECONDS);
    Map<String, Long> perTopic = new TreeMap<>();
    offsets.forEach((p, info) -> perTopic.merge(p.topic(), info.offset(), Long::sum));
    return perTopic;
  }

  /** The pid of each process named in var/run/*.pid (store, Kafka, every service), whether it still runs or not. */
  Map<String, Long> pids() throws IOException {
    Map<String, Long> pids = new TreeMap<>();
    Path run = var.resolve("run");
    if (!Files.isDirectory(run)) {
      return pids;
    }
    try (Stream<Path> files = Files.list(run)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
        String name = file.getFileName().toString().replaceFirst("\\.pid$", "");
        try {
          pids.put(name, Long.parseLong(Files.readString(file).strip()));
        } catch (NumberFormatException e) {
          // a pid file being written: the next reading counts it
        }
      }
    }
    return pids;
  }

  /**
   * Resident memory (bytes) of each live process named in var/run/*.pid, as its proportional set size: a page that
   * several processes map (the JDK's shared class archive, libraries) counts once in the sum, split between them,
   * where VmRSS would count it in every process. Falls back to VmRSS where PSS cannot be read.
   */
  Map<String, Long> residentMemory() throws IOException {
    Map<String, Long> memory = new TreeMap<>();
    pids().forEach((name, pid) -> {
      Long bytes = residentOf(pid);
      if (bytes != null) {
        memory.put(name, bytes);
      }
    });
    return memory;
  }

  /** The PSS of a process (bytes), or its VmRSS when /proc/<pid>/smaps_rollup is missing; null when it is gone. */
  static Long residentOf(long pid) {
    Long pss = kilobytes(Path.of("/proc", String.valueOf(pid), "smaps_rollup"), "Pss:");
    return pss != null ? pss : kilobytes(Path.of("/proc", String.valueOf(pid), "status"), "VmRSS:");
  }

  private static Long kilobytes(Path file, String field) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return null;
    }
    return null;
  }

  /**
   * What the store printed when it started: "memory", "h2 <file>", or why it is unknown. The start line is the
   * store's own stdout, in {@code var/logs/store.out} ({@code store.log} for a store an older launcher started).
   */
  String storeBackend() {
    if (System.getenv("MONGODB_URI") != null && !System.getenv("MONGODB_URI").isBlank()) {
      return "external MongoDB (MONGODB_URI)";
    }
    Path logs = var.resolve("logs");
    for (Path log : List.of(logs.resolve("store.out"), logs.resolve("store.log"))) {
      String backend = startLineBackend(log);
      if (backend != null) {
        return backend;
      }
    }
    return "unknown (no start line in " + logs.resolve("store.out") + ")";
  }

  private static String startLineBackend(Path log) {
    if (!Files.isRegularFile(log)) {
      return null;
    }
    try {
      List<String> lines = Files.readAllLines(log);
      for (int i = lines.size() - 1; i >= 0; i--) {
        String line = lines.get(i);
        int at = line.indexOf("store ready on ");
        if (at >= 0) {
          int open = line.indexOf('(', at);
          int close = line.lastIndexOf(')');
          return open > 0 && close > open ? line.substring(open + 1, close) : line.substring(at);
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  /** Drops a database of the store (the bench's own scratch data only). */
  void dropDatabase(String name) {
    try {
      mongo.getDatabase(name).drop();
    } catch (RuntimeException e) {
      System.err.println("bench: could not drop " + name + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    mongo.close();
    kafka.close();
  }
}
