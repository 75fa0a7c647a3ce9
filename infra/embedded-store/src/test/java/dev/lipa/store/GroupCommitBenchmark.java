package dev.lipa.store;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.bson.Document;
import org.bson.types.Decimal128;

/**
 * Not a test: how fast the on-disk store takes writes (and serves reads among them) over the wire, as mongo-java-server
 * shipped it (answers before the write is in the file) and with the group commit, fsync off and on, and fsync on
 * without the committer's compaction ({@code no-compaction}). Each run has its
 * own file, server and client in this JVM; every client thread inserts payment-sized documents one at a time (the
 * services write one document per statement), and in the mixed run half the threads read documents by {@code _id}.
 *
 * <p>Run: {@code ./mvnw -q -pl :embedded-store test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt}
 * then {@code java -cp infra/embedded-store/target/classes:infra/embedded-store/target/test-classes:$(cat
 * infra/embedded-store/target/cp.txt) dev.lipa.store.GroupCommitBenchmark [threads] [seconds] [workers] [linger-ms]
 * [all|as-shipped|fsync-off|fsync-on|no-compaction]}.
 */
public final class GroupCommitBenchmark {

  private GroupCommitBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 64;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    int workers = args.length > 2 ? Integer.parseInt(args[2]) : 64;
    long linger = args.length > 3 ? Long.parseLong(args[3]) : 0;
    String only = args.length > 4 ? args[4] : "all";
    System.out.printf(Locale.ROOT, "%d client threads, %d s per run, %d store worker threads, linger %d ms, %d cores%n",
        threads, seconds, workers, linger, Runtime.getRuntime().availableProcessors());
    Durability off = new Durability(false, Duration.ofMillis(linger));
    for (String kind : List.of("as-shipped", "fsync-off", "fsync-on", "no-compaction")) {
      if (!only.equals("all") && !only.equals(kind)) {
        continue;
      }
      Path directory = Files.createTempDirectory("group-commit-bench");
      Path file = directory.resolve("bench.mv");
      MongoBackend backend = switch (kind) {
        case "as-shipped" -> new H2Backend(file.toString());
        case "fsync-off" -> StoreBackends.h2(file, off, StoreFailure.LOG);
        case "no-compaction" -> StoreBackends.h2(file, off.withFsync(true), new Housekeeping(0, 0), StoreFailure.LOG);
        default -> StoreBackends.h2(file, off.withFsync(true), StoreFailure.LOG);
      };
      if (Integer.getInteger("retention") != null) {
        ((H2Backend) backend).getMvStore().setRetentionTime(Integer.getInteger("retention"));
      }
      MongoServer server = new MongoServer(backend);
      server.bind(new InetSocketAddress("127.0.0.1", 0), 1, workers);
      try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + server.getLocalAddress().getPort()
          + "/?maxPoolSize=" + (threads + 8))) {
        MongoCollection<Document> pushes = client.getDatabase("bench").getCollection("stk_pushes");
        pushes.createIndex(Indexes.ascending("organisationId", "referenceId"), new IndexOptions().unique(true));
        run(pushes, threads, 3, false); // warm-up
        long roundsBefore = rounds(backend);
        Result writes = run(pushes, threads, seconds, false);
        long rounds = rounds(backend) - roundsBefore;
        Result mixed = run(pushes, threads, seconds, true);
        System.out.printf(Locale.ROOT, "%-10s writes: %6.0f/s p50 %5.1f ms p99 %6.1f ms%s | mixed: writes %6.0f/s "
                + "p99 %6.1f ms, reads %6.0f/s p50 %5.1f ms p99 %6.1f ms | file %5.1f MB%n",
            kind, writes.writesPerSecond(), writes.writeP50(), writes.writeP99(),
            rounds > 0 ? String.format(Locale.ROOT, " (%.1f writes/commit)", writes.writes() / (double) rounds) : "",
            mixed.writesPerSecond(), mixed.writeP99(), mixed.readsPerSecond(), mixed.readP50(), mixed.readP99(),
            Files.size(file) / 1e6);
        if (backend instanceof H2Backend h2) {
          java.util.Map<String, String> info = new java.util.TreeMap<>();
          h2.getMvStore().populateInfo(info::put);
          info.keySet().removeIf(k -> !k.startsWith("info."));
          System.out.println("           " + info + " fileFill " + h2.getMvStore().getFillRate());
        }
        if (rounds > 0) {
          Housekeeping housekeeping = StoreBackends.groupCommit(backend).housekeeping();
          System.out.printf(Locale.ROOT,
              "           %d rounds compacted, %.2f ms each on average, the longest %.1f ms%n",
              housekeeping.runs(), housekeeping.totalNanos() / 1e6 / Math.max(1, housekeeping.runs()),
              housekeeping.longestPauseNanos() / 1e6);
        }
      } finally {
        server.shutdownNow();
        deleteQuietly(directory);
      }
    }
  }

  private static long rounds(MongoBackend backend) {
    return backend instanceof H2Backend && !backend.getClass().equals(H2Backend.class)
        ? StoreBackends.groupCommit(backend).rounds() : 0;
  }

  private static final AtomicLong SEQUENCE = new AtomicLong();

  private static Result run(MongoCollection<Document> pushes, int threads, int seconds, boolean mixed)
      throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    long[][] writeLatencies = new long[threads][];
    long[][] readLatencies = new long[threads][];
    List<Thread> clients = new ArrayList<>();
    long started = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      boolean reader = mixed && t % 2 == 1;
      clients.add(Thread.ofPlatform().start(() -> {
        long[] latencies = new long[1 << 16];
        int count = 0;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (System.nanoTime() < end) {
          long before = System.nanoTime();
          if (reader) {
            long highest = SEQUENCE.get();
            pushes.find(Filters.eq("_id", "p-" + random.nextLong(Math.max(1, highest)))).first();
          } else {
            pushes.insertOne(payment(SEQUENCE.incrementAndGet()));
          }
          if (count == latencies.length) {
            latencies = Arrays.copyOf(latencies, count * 2);
          }
          latencies[count++] = System.nanoTime() - before;
        }
        long[] taken = Arrays.copyOf(latencies, count);
        if (reader) {
          readLatencies[thread] = taken;
        } else {
          writeLatencies[thread] = taken;
        }
      }));
    }
    for (Thread client : clients) {
      client.join();
    }
    double elapsed = (System.nanoTime() - started) / 1e9;
    return new Result(merge(writeLatencies), merge(readLatencies), elapsed);
  }

  private static Document payment(long n) {
    return new Document("_id", "p-" + n)
        .append("organisationId", "org-" + (n % 50))
        .append("referenceId", "ref-" + n)
        .append("environment", "sandbox")
        .append("status", "PENDING")
        .append("amount", new Decimal128(new java.math.BigDecimal("1500.00")))
        .append("phoneNumber", "254708374149")
        .append("callbackUrl", "https://merchant.example/callbacks/stk")
        .append("description", "Payment for order " + n)
        .append("createdAt", new Date())
        .append("outbox", List.of(new Document("eventId", "e-" + n).append("type", "stk.accepted")
            .append("payload", "{\"requestId\":\"p-" + n + "\",\"amount\":1500,\"phoneNumber\":\"254708374149\","
                + "\"organisationId\":\"org-" + (n % 50) + "\",\"environment\":\"sandbox\"}")));
  }

  private static long[] merge(long[][] perThread) {
    return Arrays.stream(perThread).filter(a -> a != null).flatMapToLong(Arrays::stream).sorted().toArray();
  }

  private static void deleteQuietly(Path directory) throws IOException {
    try (var files = Files.list(directory)) {
      for (Path f : files.toList()) {
        Files.deleteIfExists(f);
      }
    }
    Files.deleteIfExists(directory);
  }

  private record Result(long[] writeNanos, long[] readNanos, double seconds) {

    long writes() {
      return writeNanos.length;
    }

    double writesPerSecond() {
      return writeNanos.length / seconds;
    }

    double readsPerSecond() {
      return readNanos.length / seconds;
    }

    double writeP50() {
      return percentile(writeNanos, 0.50);
    }

    double writeP99() {
      return percentile(writeNanos, 0.99);
    }

    double readP50() {
      return percentile(readNanos, 0.50);
    }

    double readP99() {
      return percentile(readNanos, 0.99);
    }

    private static double percentile(long[] sorted, double share) {
      return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, sorted.length * share)] / 1e6;
    }
  }
}
