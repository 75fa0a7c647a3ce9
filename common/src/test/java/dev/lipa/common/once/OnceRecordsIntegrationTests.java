package dev.lipa.common.once;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.outbox.OutboxSettings;
import dev.lipa.common.outbox.Outboxes;
import dev.lipa.common.testsupport.SharedInfra;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shared store part of create-once records, on the Mongo wire server of {@link SharedInfra}: indexes, the stamped
 * insert and what refused it, and reads that never cross organisations and never return the outbox.
 */
class OnceRecordsIntegrationTests {

  private static final UniqueKeys KEYS = UniqueKeys.standard("thing");

  private Outboxes outboxes;
  private OnceRecords<String> records;
  private String collectionName;

  @BeforeEach
  void freshCollection() {
    // the producer never answers: the events stay in the document, as after a crash before publishing
    outboxes = new Outboxes(new MockProducer<>(false, null, new StringSerializer(), new StringSerializer()),
        OutboxSettings.DEFAULTS, Clock.systemUTC());
    MongoDatabase database = SharedInfra.mongoClient().getDatabase("once-records-tests");
    collectionName = "things-" + UUID.randomUUID();
    records = new OnceRecords<>(database, outboxes, collectionName, KEYS, d -> d.getString("name"));
  }

  @AfterEach
  void closeOutboxes() {
    outboxes.close();
  }

  private static Document thing(long id, String organisationId, String name, String referenceId) {
    Document document = new Document("_id", UUID.randomUUID().toString()).append("id", id)
        .append(OnceRecords.ORGANISATION, organisationId).append("name", name);
    return referenceId == null ? document : document.append("referenceKey", organisationId + "\n" + referenceId);
  }

  private static List<OutboxEvent> events() {
    return List.of(new OutboxEvent(UUID.randomUUID().toString(), "things.v1", "k", "{}"));
  }

  @Test
  void createsTheUniqueIndexesWhenOpened() {
    assertThat(records.collection().listIndexes().map(index -> index.getString("name")).into(new ArrayList<>()))
        .contains("thing_id_unique", "thing_reference_unique", "thing_idempotency_unique");
  }

  @Test
  void stampsTheOriginAndSaysWhichKeyRefusedARepeat() {
    Document first = thing(1, "org-a", "first", "ref-1");
    assertThat(records.insert(first, new Origin("fp-1", "key-1"), events())).isEqualTo(Insert.WRITTEN);

    Document stored = records.collection().find(Filters.eq("_id", first.getString("_id"))).first();
    assertThat(stored.getString(UniqueKeys.FINGERPRINT)).isEqualTo("fp-1");
    assertThat(stored.getString("idempotencyKey")).isEqualTo("key-1");
    assertThat(stored.getList(Outbox.EVENTS, Document.class)).hasSize(1);

    assertThat(records.insert(thing(2, "org-a", "again", "ref-1"), new Origin("fp-2", null), events()))
        .isEqualTo(Insert.REFERENCE_TAKEN);
    assertThat(records.insert(thing(3, "org-a", "again", null), new Origin("fp-2", "key-1"), events()))
        .isEqualTo(Insert.KEY_TAKEN);
    assertThat(records.insert(thing(1, "org-a", "again", null), new Origin("fp-2", null), events()))
        .isEqualTo(Insert.ID_TAKEN);
    assertThat(records.collection().countDocuments()).isEqualTo(1);
  }

  @Test
  void findsAnEarlierRecordWithItsFingerprintOnlyWithinItsOrganisation() {
    records.insert(thing(1, "org-a", "first", "ref-1"), new Origin("fp-1", "key-1"), events());

    assertThat(records.byReference(OrganisationId.of("org-a"), "org-a\nref-1")).contains(new Earlier<>("first", "fp-1"));
    assertThat(records.byIdempotencyKey(OrganisationId.of("org-a"), "key-1")).contains(new Earlier<>("first", "fp-1"));
    // the same values asked by another organisation find nothing
    assertThat(records.byReference(OrganisationId.of("org-b"), "org-a\nref-1")).isEmpty();
    assertThat(records.byIdempotencyKey(OrganisationId.of("org-b"), "key-1")).isEmpty();
    assertThat(records.byReference(OrganisationId.of("org-a"), "org-a\nref-2")).isEmpty();
  }

  @Test
  void readsAndHoldsOnlyTheOrganisationsOwnRecordWithoutItsOutbox() {
    Document first = thing(1, "org-a", "first", null);
    records.insert(first, new Origin("fp-1", null), events());
    String id = first.getString("_id");

    assertThat(records.find(OrganisationId.of("org-a"), id)).contains("first");
    assertThat(records.holds(OrganisationId.of("org-a"), id)).isTrue();
    assertThat(records.find(OrganisationId.of("org-b"), id)).isEmpty();
    assertThat(records.holds(OrganisationId.of("org-b"), id)).isFalse();
    assertThat(records.holds(OrganisationId.of("org-a"), UUID.randomUUID().toString())).isFalse();

    OnceRecords<Document> whole = new OnceRecords<>(SharedInfra.mongoClient().getDatabase("once-records-tests"),
        outboxes, collectionName, KEYS, d -> d);
    Optional<Document> read = whole.find(OrganisationId.of("org-a"), id);
    assertThat(read).isPresent();
    assertThat(read.get()).doesNotContainKeys(Outbox.EVENTS, Outbox.PENDING_SINCE).containsKey("name");
  }
}
