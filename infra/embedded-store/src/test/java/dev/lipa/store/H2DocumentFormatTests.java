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
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.KeyValue;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.Document;
import org.bson.UuidRepresentation;
import org.bson.types.Binary;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The on-disk store writes documents as BSON: every kind of value the platform stores comes back the same after the
 * file is closed and reopened, and a file written by mongo-java-server's own H2 backend (Java serialisation) is
 * converted when the store opens it, its documents and unique indexes intact.
 */
class H2DocumentFormatTests {

  @TempDir
  Path directory;

  @Test
  void everyKindOfValueSurvivesClosingAndReopeningTheFile() {
    Path file = directory.resolve("values.mv");
    Document written = everyKindOfValue("p-1");
    with(StoreBackends.h2(file), collection -> {
      collection.insertOne(written);
      collection.updateOne(Filters.eq("_id", "p-1"), Updates.combine(Updates.inc("amount", new Decimal128(
          new BigDecimal("0.50"))), Updates.push("outbox", new Document("eventId", "e-2").append("n", 2))));
    });

    with(StoreBackends.h2(file), collection -> {
      Document read = collection.find(Filters.eq("_id", "p-1")).first();
      Document expected = everyKindOfValue("p-1");
      expected.put("amount", new Decimal128(new BigDecimal("1500.50")));
      expected.getList("outbox", Document.class).add(new Document("eventId", "e-2").append("n", 2));
      assertThat(read).isEqualTo(expected);
    });
    try (MVStore store = MVStore.open(file.toString())) {
      assertThat(store.<String, String>openMap(BsonConversion.FORMAT_MAP).get(BsonConversion.DOCUMENTS_KEY))
          .isEqualTo(BsonConversion.BSON_FORMAT);
    }
  }

  @Test
  void convertsAFileOfJavaSerialisedDocumentsOnceAndKeepsItsUniqueIndexes() {
    Path file = directory.resolve("old.mv");
    List<Document> documents = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      documents.add(everyKindOfValue("p-" + i).append("referenceId", "ref-" + i));
    }
    with(new H2Backend(file.toString()), collection -> {
      collection.createIndex(Indexes.ascending("organisationId", "referenceId"), new IndexOptions().unique(true));
      collection.insertMany(documents);
    });
    try (MVStore store = MVStore.open(file.toString())) {
      assertThat(store.<String, String>openMap(BsonConversion.FORMAT_MAP).get(BsonConversion.DOCUMENTS_KEY)).isNull();
    }

    for (int opening = 1; opening <= 2; opening++) { // converted the first time, left as it is the second
      with(StoreBackends.h2(file), collection -> {
        assertThat(collection.countDocuments()).isEqualTo(500);
        assertThat(collection.find(Filters.eq("_id", "p-321")).first()).isEqualTo(documents.get(321));
        assertThatThrownBy(() -> collection.insertOne(everyKindOfValue("p-new").append("referenceId", "ref-7")))
            .isInstanceOf(MongoWriteException.class).hasMessageContaining("duplicate key");
      });
    }
    try (MVStore store = MVStore.open(file.toString())) {
      assertThat(store.<String, String>openMap(BsonConversion.FORMAT_MAP).get(BsonConversion.DOCUMENTS_KEY))
          .isEqualTo(BsonConversion.BSON_FORMAT);
      assertThat(store.getMapNames()).noneMatch(name -> name.startsWith("lipa.converting."));
    }
  }

  @Test
  void uniqueIndexKeysRoundTripAndOrderExactlyAsTheyAreEqual() {
    List<KeyValue> keys = List.of(new KeyValue("org-1", "ref-1"), new KeyValue("org-1", "ref-2"),
        new KeyValue("org-1", null), new KeyValue(1), new KeyValue(1L), new KeyValue(1.0), new KeyValue(-0.0),
        new KeyValue(0.0), new KeyValue(new de.bwaldvogel.mongo.bson.Decimal128(new BigDecimal("1.0"))),
        new KeyValue(new de.bwaldvogel.mongo.bson.Decimal128(new BigDecimal("1.00"))),
        new KeyValue(java.time.Instant.ofEpochMilli(1_763_800_000_123L)), new KeyValue(true),
        new KeyValue(new de.bwaldvogel.mongo.bson.Document("a", 1)), new KeyValue(new de.bwaldvogel.mongo.bson.Document("a", 2)),
        new KeyValue(List.of("x", 1)), new KeyValue("org-1"), new KeyValue((Object) null));
    for (KeyValue a : keys) {
      WriteBuffer buffer = new WriteBuffer();
      KeyValueType.INSTANCE.write(buffer, a);
      ByteBuffer bytes = buffer.getBuffer().flip();
      assertThat(KeyValueType.INSTANCE.read(bytes)).isEqualTo(a);
      assertThat(bytes.hasRemaining()).isFalse();
      for (KeyValue b : keys) {
        int order = KeyValueType.INSTANCE.compare(a, b);
        assertThat(order == 0).as("%s against %s", a, b).isEqualTo(a.equals(b));
        assertThat(Integer.signum(order)).isEqualTo(-Integer.signum(KeyValueType.INSTANCE.compare(b, a)));
      }
    }
  }

  @Test
  void indexKeysAreWrittenExactlyAsTheDocumentOfTheirValuesWasWhateverTheyHold() {
    List<Object> values = new ArrayList<>(List.of("org-1", 1, 1L, -0.0, 2.5, true, "Malipo – ü ✓",
        java.time.Instant.ofEpochMilli(1_763_800_000_123L),
        new de.bwaldvogel.mongo.bson.Decimal128(new BigDecimal("1500.50")),
        new de.bwaldvogel.mongo.bson.Document("a", 1).append("b", List.of("x", 2)), List.of("x", 1)));
    values.add(null);
    List<KeyValue> keys = new ArrayList<>();
    keys.add(new KeyValue(new ArrayList<>(values))); // 12 values: element names "10" and "11" too
    values.forEach(value -> keys.add(new KeyValue(value)));
    for (KeyValue key : keys) {
      WriteBuffer buffer = new WriteBuffer();
      KeyValueType.writeValues(buffer, key);
      assertThat(bytes(buffer)).as("%s", key).isEqualTo(asDocumentOfValues(key));
    }
  }

  @Test
  void aLargeDocumentThenSmallOnesAreWrittenWholeAndTheGrownScratchBufferIsLetGo() {
    de.bwaldvogel.mongo.bson.Document large = new de.bwaldvogel.mongo.bson.Document("_id", "big")
        .append("text", "x".repeat(BsonScratch.KEEP + 10));
    de.bwaldvogel.mongo.bson.Document small = new de.bwaldvogel.mongo.bson.Document("_id", "small").append("n", 1);
    WriteBuffer buffer = new WriteBuffer();
    BsonDocumentType.INSTANCE.write(buffer, small);
    BsonDocumentType.INSTANCE.write(buffer, large);
    assertThat(BsonScratch.take().capacity()).as("not kept after the large document").isLessThan(BsonScratch.KEEP);
    BsonDocumentType.INSTANCE.write(buffer, small);
    KeyValueType.writeValues(buffer, new KeyValue("org-1", "ref-1"));

    ByteBuffer written = buffer.getBuffer().flip();
    assertThat(BsonDocumentType.INSTANCE.read(written)).isEqualTo(small);
    assertThat(BsonDocumentType.INSTANCE.read(written)).isEqualTo(large);
    assertThat(BsonDocumentType.INSTANCE.read(written)).isEqualTo(small);
    assertThat(KeyValueType.readValues(written)).isEqualTo(new KeyValue("org-1", "ref-1"));
    assertThat(written.hasRemaining()).isFalse();
  }

  /** What the file held for a key before: mongo-java-server's encoding of the document {"0": v0, "1": v1, ...}. */
  private static byte[] asDocumentOfValues(KeyValue key) {
    de.bwaldvogel.mongo.bson.Document document = new de.bwaldvogel.mongo.bson.Document();
    for (int i = 0; i < key.size(); i++) {
      document.put(String.valueOf(i), key.get(i));
    }
    io.netty.buffer.ByteBuf bson = io.netty.buffer.Unpooled.buffer();
    de.bwaldvogel.mongo.wire.bson.BsonEncoder.encodeDocument(document, bson);
    return io.netty.buffer.ByteBufUtil.getBytes(bson);
  }

  private static byte[] bytes(WriteBuffer buffer) {
    ByteBuffer written = buffer.getBuffer().flip();
    byte[] bytes = new byte[written.remaining()];
    written.get(bytes);
    return bytes;
  }

  /** A document with every kind of value the services write: what a push, a delivery or a ledger account holds. */
  private static Document everyKindOfValue(String id) {
    return new Document("_id", id)
        .append("organisationId", "org-1")
        .append("number", 42)
        .append("big", 9_007_199_254_740_993L)
        .append("ratio", 0.25)
        .append("amount", new Decimal128(new BigDecimal("1500.00")))
        .append("paid", true)
        .append("nothing", null)
        .append("createdAt", new Date(1_763_800_000_123L))
        .append("objectId", new ObjectId("65f0c0ffee00000000000001"))
        .append("uuid", uuid(UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e")))
        .append("bytes", new Binary(BsonBinarySubType.BINARY, new byte[] {0, 1, 2, (byte) 255}))
        .append("text", "Malipo ya Mteja – ü ✓")
        .append("tags", List.of("a", 1, 2L, new Document("nested", List.of()), List.of("x")))
        .append("outbox", new ArrayList<>(List.of(new Document("eventId", "e-1")
            .append("payload", "{\"type\":\"stk.accepted\",\"amount\":1500}"))))
        .append("attempts", List.of(new Document("at", new Date(1_763_800_001_000L)).append("status", 503)));
  }

  private static Binary uuid(UUID uuid) {
    BsonBinary standard = new BsonBinary(uuid, UuidRepresentation.STANDARD);
    return new Binary(standard.getType(), standard.getData());
  }

  private static void with(MongoBackend backend, Consumer<MongoCollection<Document>> work) {
    MongoServer server = new MongoServer(backend);
    InetSocketAddress address = server.bind();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort())) {
      work.accept(client.getDatabase("format").getCollection("pushes"));
    } finally {
      server.shutdownNow();
    }
  }
}
