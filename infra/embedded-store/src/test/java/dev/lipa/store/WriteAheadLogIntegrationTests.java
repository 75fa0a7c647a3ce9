package dev.lipa.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead log: a write is answered once the log holds it, without committing the H2 file, and a store opened on
 * what a {@code kill -9} leaves (the file as of its last checkpoint, and the log) has every answered write back, with
 * its indexes. Checkpoints come once a minute here, so none falls inside a test unless a command asks for one.
 */
class WriteAheadLogIntegrationTests {

  private static final Durability RARE_CHECKPOINTS = Durability.DEFAULT.withCheckpointEvery(Duration.ofMinutes(1));
  private static final Durability FREQUENT_CHECKPOINTS = Durability.DEFAULT.withCheckpointEvery(Duration.ofMillis(20));

  @TempDir
  Path directory;

  @Test
  void writesAreAnsweredFromTheLogWithoutCommittingTheFile() throws Exception {
    try (Running store = new Running(directory.resolve("store.mv"))) {
      MongoCollection<Document> pushes = store.pushes();
      long checkpoints = store.commits.checkpoints();
      long groups = store.commits.rounds();

      for (int n = 0; n < 50; n++) {
        pushes.insertOne(push(n, "PENDING"));
      }

      assertThat(store.commits.checkpoints()).isEqualTo(checkpoints);
      assertThat(store.commits.rounds() - groups).isBetween(1L, 50L);
    }
  }

  @Test
  void whatTheLogAnsweredIsAppliedAgainWithItsIndexesWhenTheStoreOpens() throws Exception {
    Path image = directory.resolve("image.mv");
    try (Running store = new Running(directory.resolve("store.mv"))) {
      MongoCollection<Document> pushes = store.pushes();
      for (int n = 0; n < 200; n++) {
        pushes.insertOne(push(n, "PENDING"));
      }
      for (int n = 0; n < 200; n += 2) {
        pushes.updateOne(Filters.eq("_id", "p-" + n), Updates.set("status", "SUCCEEDED"));
      }
      for (int n = 0; n < 200; n += 10) {
        pushes.deleteOne(Filters.eq("_id", "p-" + n));
      }
      store.commits.copyTo(image); // what a kill -9 now would leave: no checkpoint since the index was created
    }

    try (Running reopened = new Running(image)) {
      MongoCollection<Document> pushes = reopened.pushes();
      assertThat(pushes.countDocuments()).isEqualTo(180);
      assertThat(pushes.find(Filters.eq("_id", "p-10")).first()).isNull();
      assertThat(pushes.find(Filters.eq("_id", "p-12")).first()).containsEntry("status", "SUCCEEDED");
      // the sorted index holds the replayed states: the newest succeeded push, read from the index
      long examined = reopened.examined();
      List<Document> newest = pushes.find(Filters.and(Filters.eq("organisationId", "org-0"),
          Filters.eq("status", "SUCCEEDED"))).sort(Sorts.descending("createdAt")).limit(3).into(new ArrayList<>());
      assertThat(newest).extracting(d -> d.get("_id")).containsExactly("p-198", "p-196", "p-194");
      assertThat(reopened.examined() - examined).isLessThan(10);
      // and the unique index holds the replayed keys
      assertThatThrownBy(() -> pushes.insertOne(push(21, "PENDING").append("_id", "another")))
          .isInstanceOf(MongoWriteException.class).hasMessageContaining("duplicate key");
      assertThat(pushes.find(Filters.eq("referenceId", "ref-199")).first()).containsEntry("_id", "p-199");
    }
  }

  @Test
  void aRecordCutShortAtTheEndOfTheLogIsAWriteNeverAnswered() throws Exception {
    Path image = imageAfterTenInserts();
    Path segment = segments(image).getLast();
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      long end = endOfRecords(file);
      file.seek(end - 7);
      // the last insert's record, cut short as a crash while writing it would leave it (its last bytes not written, so
      // what the segment held there before: here, ones)
      file.write(new byte[] {-1, -1, -1, -1, -1, -1, -1});
    }

    try (Running reopened = new Running(image)) {
      assertThat(reopened.pushes().countDocuments()).isEqualTo(9);
      assertThat(reopened.pushes().find(Filters.eq("_id", "p-9")).first()).isNull();
      reopened.pushes().insertOne(push(9, "PENDING")); // and the store goes on from there
    }
    try (Running again = new Running(image)) {
      assertThat(again.pushes().countDocuments()).isEqualTo(10);
    }
  }

  @Test
  void aDamagedRecordWithMoreLogAfterItStopsTheStoreFromOpening() throws Exception {
    Path image = imageAfterTenInserts();
    Path segment = segments(image).getLast();
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      long middle = endOfRecords(file) / 2;
      file.seek(middle);
      int value = file.read();
      file.seek(middle);
      file.write(value ^ 0xFF); // a length, a checksum or a document: each ends the segment where it is
    }
    // a later segment: the damage is not the end of the log, where a crash could have left it
    Files.createFile(segment.resolveSibling(image.getFileName() + ".wal.00000000000000099999"));

    assertThatThrownBy(() -> StoreBackends.h2(image, RARE_CHECKPOINTS, StoreFailure.LOG))
        .hasMessageContaining("write-ahead log").hasMessageContaining("damaged");
  }

  @Test
  void aCommandThatChangesTheFilesStructureIsAnsweredOnceACheckpointHoldsIt() throws Exception {
    Path fileOnly = directory.resolve("file-only.mv");
    try (Running store = new Running(directory.resolve("store.mv"))) {
      long checkpoints = store.commits.checkpoints();
      store.pushes().createIndex(Indexes.ascending("phoneNumber"));

      assertThat(store.commits.checkpoints()).isGreaterThan(checkpoints);
      store.commits.copyTo(fileOnly);
    }
    for (Path segment : segments(fileOnly)) {
      Files.delete(segment); // the H2 file alone, without the log
    }
    try (Running reopened = new Running(fileOnly)) {
      List<String> indexes = reopened.pushes().listIndexes().map(d -> d.getString("name")).into(new ArrayList<>());
      assertThat(indexes).contains("phoneNumber_1");
    }
  }

  @Test
  void checkpointedSegmentsAreRecycledNotKept() throws Exception {
    Path file = directory.resolve("store.mv");
    try (Running store = new Running(file, FREQUENT_CHECKPOINTS)) {
      long checkpoints = store.commits.checkpoints();
      for (int n = 0; store.commits.checkpoints() - checkpoints < 10; n++) {
        store.pushes().insertOne(push(n, "PENDING"));
        // the segment written to, and at most one spare: the log does not grow with the checkpoints
        assertThat(segments(file).size() + (Files.exists(directory.resolve("store.mv.wal.spare")) ? 1 : 0))
            .isLessThanOrEqualTo(3);
      }
      assertThat(Files.exists(directory.resolve("store.mv.wal.spare"))).isTrue();
    }
    // closing checkpoints: the file alone holds everything
    for (Path segment : segments(file)) {
      Files.delete(segment);
    }
    assertThat(StoreFiles.ids(file, "durable", "pushes")).isNotEmpty();
  }

  @Test
  void theFilesHeaderNamesTheLastCheckpointsChunk() throws Exception {
    // H2 rewrites its header only when it writes a chunk into the middle of the file; chunks appended at the end (a
    // new file's) left it naming the first one, and a crash while a large chunk was appended opened the file there
    assertThat(FileHeader.supported()).isTrue();
    try (Running store = new Running(directory.resolve("store.mv"), FREQUENT_CHECKPOINTS)) {
      long checkpoints = store.commits.checkpoints();
      for (int n = 0; store.commits.checkpoints() - checkpoints < 20; n++) {
        store.pushes().insertOne(push(n, "PENDING"));
      }
      Path image = directory.resolve("image.mv");
      store.commits.copyTo(image); // between two checkpoints
      long version = store.mvStore.getCurrentVersion();

      assertThat(headerVersion(image)).isGreaterThanOrEqualTo(version - 2).isGreaterThan(20);
    }
  }

  @Test
  void changesThatHoldMuchOfTheHeapAreCheckpointedBeforeTheirTime() {
    // random keys: each insert changes a page of the documents and of each index, and a page stays on the heap,
    // decoded, until a checkpoint writes it. With a checkpoint a minute and a log far below its own bound (about 33 MB
    // of inserts), only the bound on what the changed pages hold brings a checkpoint within this test; without it a
    // bulk fill ran the store out of its heap
    int documents = 30_000;
    String padding = "x".repeat(1_000);
    assertThat((long) documents * (padding.length() + 100)).isLessThan(Checkpoints.CHECKPOINT_BYTES);
    try (Running store = new Running(directory.resolve("store.mv"))) {
      long checkpoints = store.commits.checkpoints();
      long mostUnsaved = 0;
      List<Document> batch = new ArrayList<>();
      for (int n = 0; n < documents; n++) {
        batch.add(new Document("_id", java.util.UUID.randomUUID().toString()).append("organisationId", "org-" + n % 7)
            .append("referenceId", java.util.UUID.randomUUID().toString()).append("status", "PENDING")
            .append("createdAt", 1_000_000L + n).append("padding", padding));
        if (batch.size() == 500) {
          store.pushes().insertMany(batch);
          batch.clear();
          mostUnsaved = Math.max(mostUnsaved, store.mvStore.getUnsavedMemory());
        }
      }

      assertThat(store.commits.checkpoints() - checkpoints).isPositive();
      // a checkpoint falls due with the first group of records after the bound is passed: one command's changes over it
      assertThat(mostUnsaved).isLessThan(2 * Checkpoints.CHECKPOINT_UNSAVED_BYTES);
      assertThat(store.pushes().countDocuments()).isEqualTo(documents);
    }
  }

  /** The version the H2 file's header names (its first block: {@code H:2,...,version:<hex>,...}). */
  private static long headerVersion(Path file) throws IOException {
    byte[] block = new byte[4096];
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      in.readFully(block);
    }
    String header = new String(block, java.nio.charset.StandardCharsets.ISO_8859_1);
    java.util.regex.Matcher version = java.util.regex.Pattern.compile("version:([0-9a-f]+)").matcher(header);
    assertThat(version.find()).as("header %s", header.trim()).isTrue();
    return Long.parseLong(version.group(1), 16);
  }

  /** Where the records of a segment end (the zeros after them were never written). */
  private static long endOfRecords(RandomAccessFile file) throws IOException {
    long position = 0;
    while (true) {
      file.seek(position);
      int length = file.readInt();
      if (length == 0) {
        return position;
      }
      position += 8 + length;
    }
  }

  /** What a kill -9 leaves after ten inserts: the file (its indexes created, no checkpoint since) and its log. */
  private Path imageAfterTenInserts() throws IOException {
    Path image = directory.resolve("image.mv");
    try (Running store = new Running(directory.resolve("store.mv"))) {
      for (int n = 0; n < 10; n++) {
        store.pushes().insertOne(push(n, "PENDING"));
      }
      store.commits.copyTo(image);
    }
    return image;
  }

  private static Document push(int n, String status) {
    return new Document("_id", "p-" + n).append("organisationId", "org-" + n % 2).append("referenceId", "ref-" + n)
        .append("status", status).append("createdAt", 1_000_000L + n);
  }

  private static List<Path> segments(Path file) throws IOException {
    try (Stream<Path> files = Files.list(file.getParent())) {
      return files.filter(f -> f.getFileName().toString().startsWith(file.getFileName() + ".wal.")).sorted().toList();
    }
  }

  /** A store on a file, served over a socket, with the indexes a list and a lookup use. */
  private static final class Running implements AutoCloseable {

    final GroupCommit commits;
    final org.h2.mvstore.MVStore mvStore;
    private final MongoServer server;
    private final MongoClient client;

    Running(Path file) {
      this(file, RARE_CHECKPOINTS);
    }

    Running(Path file, Durability durability) {
      MongoBackend backend = StoreBackends.h2(file, durability, StoreFailure.LOG);
      commits = StoreBackends.groupCommit(backend);
      mvStore = ((de.bwaldvogel.mongo.backend.h2.H2Backend) backend).getMvStore();
      server = new MongoServer(backend);
      server.bind(new InetSocketAddress("127.0.0.1", 0), 1, 4);
      client = MongoClients.create("mongodb://127.0.0.1:" + server.getLocalAddress().getPort());
      pushes().createIndex(Indexes.ascending("referenceId"), new IndexOptions().unique(true));
      pushes().createIndex(Indexes.compoundIndex(Indexes.ascending("organisationId", "status"),
          Indexes.descending("createdAt")));
    }

    MongoCollection<Document> pushes() {
      return client.getDatabase("durable").getCollection("pushes");
    }

    long examined() {
      Document status = client.getDatabase("admin").runCommand(new Document("serverStatus", 1));
      return ((Number) status.get("lipa", Document.class).get("documentsExamined")).longValue();
    }

    @Override
    public void close() {
      client.close();
      server.shutdownNow();
    }
  }
}
