package dev.lipa.common;

import static dev.lipa.common.testsupport.StoredShape.assertShape;
import static dev.lipa.common.testsupport.StoredShape.stored;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.common.audit.AuditRecord;
import dev.lipa.common.audit.OperatorAuditStore;
import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.idempotency.Attempt;
import dev.lipa.common.idempotency.IdempotencyClaim;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotencySettings;
import dev.lipa.common.idempotency.IdempotentRequest;
import dev.lipa.common.idempotency.StoredResponse;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.kafka.DeadLetterStore;
import dev.lipa.common.organisations.OrganisationDirectory;
import dev.lipa.common.organisations.OrganisationProfile;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.outbox.OutboxSettings;
import dev.lipa.common.tracing.TestTracing;
import dev.lipa.common.ratelimit.Limit;
import dev.lipa.common.ratelimit.MongoProxyManager;
import dev.lipa.common.testsupport.ManualTimeMeter;
import dev.lipa.common.testsupport.MutableClock;
import dev.lipa.common.testsupport.SharedInfra;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pins the shape (field names and BSON types, as the store holds them) of every document common's mechanisms write
 * into a service's database: the outbox's fields in an aggregate's document, idempotency keys, the copy of the
 * organisation profiles, dead letters, the operator audit and the rate limits' buckets. Data written by one release is
 * read by the next: a renamed field or a changed type must fail here before it fails in production.
 */
class StoredShapesIntegrationTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static MongoClient client;
  private static MongoDatabase database;

  @BeforeAll
  static void connect() {
    client = MongoClients.create(SharedInfra.mongoUri());
    database = client.getDatabase("stored-shapes-tests");
  }

  @AfterAll
  static void disconnect() {
    client.close();
  }

  private static MongoCollection<Document> fresh(String name) {
    return database.getCollection(name + "-" + UUID.randomUUID());
  }

  @Test
  void theMechanismsKeepTheirCollectionAndFieldNames() {
    assertThat(IdempotencyKeys.COLLECTION).isEqualTo("idempotency_keys");
    assertThat(OrganisationDirectory.COLLECTION).isEqualTo("organisations");
    assertThat(DeadLetterStore.COLLECTION).isEqualTo("dead_letters");
    assertThat(OperatorAuditStore.COLLECTION).isEqualTo("operator_audit");
    assertThat(Outbox.EVENTS).isEqualTo("outbox");
    assertThat(Outbox.PENDING_SINCE).isEqualTo("outboxPendingSince");
  }

  @Nested
  class OutboxFields {

    @Test
    void anAggregatesPendingEventsAndTheTimeTheOldestWasWritten() {
      MongoCollection<Document> collection = fresh("outbox");
      // the acknowledgement's removal is held for 30 s, so the events are still in the document when it is read
      OutboxSettings settings = new OutboxSettings(Duration.ofMinutes(1), Duration.ofMinutes(1), 100,
          Duration.ofSeconds(30));
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
          ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers(),
          ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
          Outbox outbox = new Outbox(collection, producer, settings, Clock.systemUTC())) {
        EventEnvelope envelope = EventEnvelope.create("test.happened", "org-1", Map.of("n", 1));
        outbox.insert(new Document("_id", "a-1").append("status", "PENDING"),
            List.of(OutboxEvent.of("test.stored-shapes", "a-1", envelope, JSON)));

        assertShape(stored(collection, Filters.eq("_id", "a-1")), """
            _id: string
            outbox: array
            outbox[]: document
            outbox[].eventId: string
            outbox[].key: string
            outbox[].payload: string
            outbox[].topic: string
            outboxPendingSince: date_time
            status: string
            """);
      }
    }

    @Test
    void anEventWrittenUnderATraceKeepsItsTraceparent() {
      MongoCollection<Document> collection = fresh("outbox-traced");
      OutboxSettings settings = new OutboxSettings(Duration.ofMinutes(1), Duration.ofMinutes(1), 100,
          Duration.ofSeconds(30));
      TestTracing tracing = TestTracing.sampled();
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
          ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers(),
          ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer());
          Outbox outbox = new Outbox(collection, producer, settings, Clock.systemUTC(), tracing.contexts())) {
        EventEnvelope envelope = EventEnvelope.create("test.happened", "org-1", Map.of("n", 1));
        tracing.inNewTrace(() -> outbox.insert(new Document("_id", "a-1").append("status", "PENDING"),
            List.of(OutboxEvent.of("test.stored-shapes", "a-1", envelope, JSON))));

        assertShape(stored(collection, Filters.eq("_id", "a-1")), """
            _id: string
            outbox: array
            outbox[]: document
            outbox[].eventId: string
            outbox[].key: string
            outbox[].payload: string
            outbox[].topic: string
            outbox[].traceparent: string
            outboxPendingSince: date_time
            status: string
            """);
      }
    }
  }

  @Nested
  class IdempotencyKeysCollection {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T09:00:00Z"));
    private final MongoCollection<Document> collection = fresh(IdempotencyKeys.COLLECTION);
    private final IdempotencyKeys keys = new IdempotencyKeys(collection,
        new IdempotencySettings(Duration.ofHours(24), Duration.ofSeconds(30), Duration.ofMinutes(10)), clock);

    private IdempotencyClaim claim() {
      Attempt attempt = keys.begin(new IdempotentRequest(OrganisationId.of("org-1"), "POST /things", "key-1", "f1"));
      return ((Attempt.Claimed) attempt).claim();
    }

    @Test
    void aKeyInFlight() {
      IdempotencyClaim claim = claim();

      assertShape(stored(collection, Filters.eq("_id", claim.id())), """
          _id: string
          createdAt: date_time
          expiresAt: date_time
          fingerprint: string
          key: string
          leaseUntil: date_time
          organisationId: string
          owner: string
          recordKey: string
          scope: string
          state: string
          """);
    }

    @Test
    void aKeyWithItsStoredResponse() {
      IdempotencyClaim claim = claim();
      keys.complete(claim, new StoredResponse(201, "{\"status\":true}"));

      assertShape(stored(collection, Filters.eq("_id", claim.id())), """
          _id: string
          body: string
          completedAt: date_time
          createdAt: date_time
          expiresAt: date_time
          fingerprint: string
          key: string
          organisationId: string
          owner: string
          recordKey: string
          scope: string
          state: string
          status: int32
          """);
    }
  }

  @Nested
  class OrganisationDirectoryCopy {

    @Test
    void aSubAccountsProfileWithItsBankAccounts() {
      MongoCollection<Document> collection = fresh(OrganisationDirectory.COLLECTION);
      Instant created = Instant.parse("2025-03-01T08:00:00Z");
      new OrganisationDirectory(collection).apply(new OrganisationProfile("org-1", 42, "Duka", "254700000001",
          "ops@duka.example", "LP0000000042", "sandbox", "https://duka.example/bank", "org-0", false,
          List.of("1100223344"), "https://cdn.example/l.png", "Duka Ltd", created, created.plusSeconds(60), 3));

      assertShape(stored(collection, Filters.eq("_id", "org-1")), """
          _id: string
          bankAccountNumbers: array
          bankAccountNumbers[]: string
          collectionCallbackUrl: string
          createdAt: date_time
          displayName: string
          email: string
          environment: string
          id: int64
          logoUrl: string
          name: string
          parent: boolean
          parentOrganisationId: string
          phoneNumber: string
          revision: int64
          uniqueReference: string
          updatedAt: date_time
          """);
    }

    @Test
    void aTopLevelProfileWithoutTheOptionalFields() {
      MongoCollection<Document> collection = fresh(OrganisationDirectory.COLLECTION);
      Instant created = Instant.parse("2025-03-01T08:00:00Z");
      new OrganisationDirectory(collection).apply(new OrganisationProfile("org-2", 43, "Duka", "254700000001",
          "ops@duka.example", "LP0000000043", "sandbox", null, null, true, List.of(), null, null, created, created,
          1));

      assertShape(stored(collection, Filters.eq("_id", "org-2")), """
          _id: string
          bankAccountNumbers: array
          bankAccountNumbers[]: (empty)
          collectionCallbackUrl: null
          createdAt: date_time
          displayName: null
          email: string
          environment: string
          id: int64
          logoUrl: null
          name: string
          parent: boolean
          parentOrganisationId: null
          phoneNumber: string
          revision: int64
          uniqueReference: string
          updatedAt: date_time
          """);
    }
  }

  @Nested
  class DeadLetters {

    @Test
    void aRecordItsListenerGaveUpOn() {
      MongoCollection<Document> collection = fresh(DeadLetterStore.COLLECTION);
      RecordHeaders headers = new RecordHeaders();
      headers.add("correlationId", "c-1".getBytes(StandardCharsets.UTF_8));
      ConsumerRecord<String, String> record = new ConsumerRecord<>("payments.collections.v1", 2, 41L,
          1_772_355_600_000L, TimestampType.CREATE_TIME, 3, 9, "req-1", "{not json", headers, Optional.empty());

      String id = new DeadLetterStore(collection).record("ledger-credits", "payouts-ledger", record,
          "payments.collections.v1.payouts-ledger.dlt", new IllegalArgumentException("not JSON"),
          Instant.parse("2026-03-01T09:00:00Z")).id();

      assertShape(stored(collection, Filters.eq("_id", id)), """
          _id: string
          attempts: int32
          consumerGroup: string
          deadAt: date_time
          deadLetterTopic: string
          exceptionClass: string
          exceptionMessage: string
          headers: array
          headers[]: document
          headers[].name: string
          headers[].value: binary
          key: string
          lastFailedAt: date_time
          listener: string
          offset: int64
          partition: int32
          replays: int32
          status: string
          timestamp: date_time
          topic: string
          value: string
          """);
    }
  }

  @Nested
  class OperatorAudit {

    @Test
    void aCompletedOperatorCall() {
      MongoCollection<Document> collection = fresh(OperatorAuditStore.COLLECTION);
      OperatorAuditStore store = new OperatorAuditStore(collection);
      Instant at = Instant.parse("2026-03-01T09:00:00Z");
      store.begin(new AuditRecord("audit-1", at, "amina", "DELETE", "/admin/v1/organisations/org-1/api-keys/lk_1",
          "reason=leak", null, null, null, "10.0.0.7", "127.0.0.1", "corr-1", "auth-service"));
      store.complete("audit-1", 200, Map.of("organisationId", "org-1"), at.plusMillis(40));

      assertShape(stored(collection, Filters.eq("_id", "audit-1")), """
          _id: string
          address: string
          at: date_time
          completedAt: date_time
          correlationId: string
          ids: document
          ids.organisationId: string
          method: string
          operator: string
          path: string
          peerAddress: string
          query: string
          service: string
          status: int32
          """);
    }
  }

  @Nested
  class RateLimitBuckets {

    @Test
    void aBucketAfterItsFirstToken() {
      MongoCollection<Document> collection = fresh("rate_limit_buckets");
      MongoProxyManager buckets = new MongoProxyManager(collection, Duration.ZERO, new ManualTimeMeter());
      buckets.builder().build("org-1:POST", () -> Limit.configuration(List.of(Limit.perPeriod(10,
          Duration.ofSeconds(1))))).tryConsume(1);

      assertShape(stored(collection, Filters.eq("_id", "org-1:POST")), """
          _id: string
          expiresAt: date_time
          state: binary
          """);
    }
  }
}
