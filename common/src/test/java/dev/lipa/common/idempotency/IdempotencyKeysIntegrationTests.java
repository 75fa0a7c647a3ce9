package dev.lipa.common.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.web.ApiException;
import dev.lipa.common.web.FieldErrors;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

/** Idempotency keys against the Mongo wire server of {@link SharedInfra}, with a clock the tests move. */
class IdempotencyKeysIntegrationTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String SCOPE = "POST /things";
  private static MongoClient mongo;

  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T09:00:00Z"));
  private final IdempotencySettings settings =
      new IdempotencySettings(Duration.ofHours(24), Duration.ofSeconds(30), Duration.ofMinutes(10));
  private MongoCollection<Document> collection;
  private IdempotencyKeys keys;
  private IdempotentEndpoint endpoint;
  private String org;

  @BeforeAll
  static void connect() {
    mongo = MongoClients.create(SharedInfra.mongoUri());
  }

  @AfterAll
  static void disconnect() {
    mongo.close();
  }

  @BeforeEach
  void freshCollection() {
    collection = mongo.getDatabase("idempotency-tests").getCollection("keys-" + UUID.randomUUID());
    keys = new IdempotencyKeys(collection, settings, clock);
    endpoint = new IdempotentEndpoint(keys, JSON);
    org = UUID.randomUUID().toString();
  }

  private IdempotentRequest request(String key, String fingerprint) {
    return new IdempotentRequest(OrganisationId.of(org), SCOPE, key, fingerprint);
  }

  private IdempotencyClaim claim(String key, String fingerprint) {
    Attempt attempt = keys.begin(request(key, fingerprint));
    assertThat(attempt).isInstanceOf(Attempt.Claimed.class);
    return ((Attempt.Claimed) attempt).claim();
  }

  @Nested
  class Begin {

    @Test
    void claimsANewKeyInFlightWithItsExpiry() {
      IdempotencyClaim claim = claim("k1", "f1");

      Document stored = collection.find(Filters.eq("_id", org + "|" + SCOPE + "|k1")).first();
      assertThat(claim.takenOver()).isFalse();
      assertThat(stored.getString("state")).isEqualTo("IN_FLIGHT");
      assertThat(stored.getString("fingerprint")).isEqualTo("f1");
      assertThat(stored.getString("recordKey")).isEqualTo(claim.recordKey());
      assertThat(stored.getDate("expiresAt").toInstant()).isEqualTo(clock.instant().plus(Duration.ofHours(24)));
    }

    @Test
    void replaysACompletedKeyWithTheSameFingerprint() {
      keys.complete(claim("k1", "f1"), new StoredResponse(201, "{\"a\":1}"));

      assertThat(keys.begin(request("k1", "f1"))).isEqualTo(new Attempt.Replay(new StoredResponse(201, "{\"a\":1}")));
    }

    @Test
    void refusesTheKeyWithAnotherFingerprintInFlightOrCompleted() {
      IdempotencyClaim claim = claim("k1", "f1");
      assertThat(keys.begin(request("k1", "f2"))).isInstanceOf(Attempt.Mismatch.class);

      keys.complete(claim, new StoredResponse(201, "{}"));
      assertThat(keys.begin(request("k1", "f2"))).isInstanceOf(Attempt.Mismatch.class);
    }

    @Test
    void saysInFlightWhileTheClaimantHoldsItsLease() {
      claim("k1", "f1");
      clock.advance(Duration.ofSeconds(29));

      assertThat(keys.begin(request("k1", "f1"))).isInstanceOf(Attempt.InFlight.class);
    }

    @Test
    void letsARetryTakeOverAfterTheLeaseWithTheSameRecordKey() {
      IdempotencyClaim dead = claim("k1", "f1");
      clock.advance(Duration.ofSeconds(31));

      IdempotencyClaim retry = claim("k1", "f1");

      assertThat(retry.takenOver()).isTrue();
      assertThat(retry.recordKey()).isEqualTo(dead.recordKey());
      assertThat(keys.complete(dead, new StoredResponse(201, "{\"late\":true}"))).isFalse();
      assertThat(keys.complete(retry, new StoredResponse(201, "{}"))).isTrue();
    }

    @Test
    void scopesKeysByOrganisationAndEndpoint() {
      claim("k1", "f1");

      assertThat(keys.begin(new IdempotentRequest(OrganisationId.of(UUID.randomUUID().toString()), SCOPE, "k1", "f2")))
          .isInstanceOf(Attempt.Claimed.class);
      assertThat(keys.begin(new IdempotentRequest(OrganisationId.of(org), "POST /other", "k1", "f2")))
          .isInstanceOf(Attempt.Claimed.class);
    }

    @Test
    void treatsAnExpiredKeyAsNewWithAFreshRecordKey() {
      IdempotencyClaim first = claim("k1", "f1");
      keys.complete(first, new StoredResponse(201, "{}"));
      clock.advance(Duration.ofHours(24));

      IdempotencyClaim again = claim("k1", "f2");

      assertThat(again.takenOver()).isFalse();
      assertThat(again.recordKey()).isNotEqualTo(first.recordKey());
    }
  }

  @Nested
  class Cleanup {

    @Test
    void purgesOnlyExpiredKeys() {
      keys.complete(claim("old", "f"), new StoredResponse(201, "{}"));
      clock.advance(Duration.ofHours(23));
      claim("young", "f");
      clock.advance(Duration.ofHours(1).plusSeconds(1));

      assertThat(keys.purgeExpired()).isEqualTo(1);
      assertThat(collection.find().map(d -> d.getString("key")).into(new java.util.ArrayList<>()))
          .containsExactly("young");
    }

    @Test
    void refusesARetentionShorterThan24Hours() {
      assertThatThrownBy(() -> new IdempotencySettings(Duration.ofHours(23), Duration.ofSeconds(30),
          Duration.ofMinutes(1))).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  class ReadKey {

    @Test
    void acceptsUpTo255VisibleCharacters() {
      FieldErrors errors = new FieldErrors();
      assertThat(IdempotencyKeys.readKey(" " + "k".repeat(255) + " ", errors)).isEqualTo("k".repeat(255));
      assertThat(IdempotencyKeys.readKey(null, errors)).isNull();
      assertThat(errors.isEmpty()).isTrue();
    }

    @Test
    void refusesLongBlankOrControlCharacterKeysNamingTheHeader() {
      for (String bad : List.of("k".repeat(256), "  ", "a\u0001b", "clé")) {
        FieldErrors errors = new FieldErrors();
        assertThat(IdempotencyKeys.readKey(bad, errors)).isNull();
        assertThat(errors.asMap()).containsOnlyKeys("Idempotency-Key");
      }
    }
  }

  @Nested
  class Endpoint {

    private final AtomicInteger executions = new AtomicInteger();

    private ResponseEntity<?> call(String key, String fingerprint, HttpStatus status) {
      return endpoint.execute(request(key, fingerprint), claim -> {
        executions.incrementAndGet();
        return ResponseEntity.status(status).body(Map.of("n", executions.get()));
      });
    }

    @Test
    void storesA2xxAndReplaysItMarkedAsReplayed() {
      ResponseEntity<?> first = call("k1", "f1", HttpStatus.CREATED);
      ResponseEntity<?> again = call("k1", "f1", HttpStatus.CREATED);

      assertThat(executions).hasValue(1);
      assertThat(first.getHeaders().containsHeader("Idempotent-Replayed")).isFalse();
      assertThat(again.getStatusCode().value()).isEqualTo(201);
      assertThat(again.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
      assertThat(again.getBody()).isEqualTo("{\"n\":1}");
    }

    @Test
    void answersAMismatchedBodyWith409() {
      call("k1", "f1", HttpStatus.CREATED);

      assertThatThrownBy(() -> call("k1", "f2", HttpStatus.CREATED)).isInstanceOfSatisfying(ApiException.class,
          e -> {
            assertThat(e.status()).isEqualTo(HttpStatus.CONFLICT);
            assertThat(e.getMessage()).isEqualTo(IdempotentEndpoint.MISMATCH_MESSAGE);
          });
      assertThat(executions).hasValue(1);
    }

    @Test
    void answersARequestStillInFlightWith409() {
      claim("k1", "f1");

      assertThatThrownBy(() -> call("k1", "f1", HttpStatus.CREATED)).isInstanceOfSatisfying(ApiException.class,
          e -> assertThat(e.getMessage()).isEqualTo(IdempotentEndpoint.IN_FLIGHT_MESSAGE));
      assertThat(executions).hasValue(0);
    }

    @Test
    void releasesTheKeyOnARefusalSoItCanBeUsedAgainWithAnotherBody() {
      call("k1", "f1", HttpStatus.CONFLICT);
      assertThatThrownBy(() -> endpoint.execute(request("k2", "f1"), claim -> {
        throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "insufficient balance");
      })).isInstanceOf(ApiException.class);
      assertThatThrownBy(() -> endpoint.execute(request("k3", "f1"), claim -> {
        throw dev.lipa.common.web.ValidationException.of("amount", "amount is required");
      })).isInstanceOf(dev.lipa.common.web.ValidationException.class);

      assertThat(collection.countDocuments()).isZero();
      call("k1", "f2", HttpStatus.CREATED);
      call("k2", "f2", HttpStatus.CREATED);
      assertThat(executions).hasValue(3);
    }

    @Test
    void letsARetryRunAtOnceAfterAFailureKeepingTheRecordKey() {
      List<String> recordKeys = new java.util.ArrayList<>();
      assertThatThrownBy(() -> endpoint.execute(request("k1", "f1"), claim -> {
        recordKeys.add(claim.recordKey());
        throw new IllegalStateException("the store timed out");
      })).isInstanceOf(IllegalStateException.class);
      endpoint.execute(request("k1", "f1"), claim -> {
        recordKeys.add(claim.recordKey());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).build();
      });
      ResponseEntity<?> third = endpoint.execute(request("k1", "f1"), claim -> {
        recordKeys.add(claim.recordKey());
        return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("n", 1));
      });

      // no lease to wait for, and the same record key every time (a record written before a failure is found)
      assertThat(recordKeys).hasSize(3).containsOnly(recordKeys.getFirst());
      assertThat(third.getStatusCode().value()).isEqualTo(201);
    }

    @Test
    void aRecordWrittenBeforeAFailureIsTheRetrysAnswerNotASecondRecord() {
      // the action of a payment endpoint: insert the record stamped with the claim's record key (unique), or answer
      // with the record that key already made
      MongoCollection<Document> records = mongo.getDatabase("idempotency-tests").getCollection("records-"
          + UUID.randomUUID());
      records.createIndex(new Document("recordKey", 1), new com.mongodb.client.model.IndexOptions().unique(true));
      AtomicInteger timeouts = new AtomicInteger(1);
      java.util.function.Function<IdempotencyClaim, ResponseEntity<?>> pay = claim -> {
        String id = UUID.randomUUID().toString();
        try {
          records.insertOne(new Document("_id", id).append("recordKey", claim.recordKey()));
        } catch (com.mongodb.MongoWriteException duplicate) {
          id = records.find(Filters.eq("recordKey", claim.recordKey())).first().getString("_id");
          return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id));
        }
        if (timeouts.getAndDecrement() > 0) {
          throw new IllegalStateException("the insert was applied, then the connection timed out");
        }
        return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id));
      };

      assertThatThrownBy(() -> endpoint.execute(request("k1", "f1"), pay)).isInstanceOf(IllegalStateException.class);
      ResponseEntity<?> retry = endpoint.execute(request("k1", "f1"), pay);

      assertThat(records.countDocuments()).as("records paid").isEqualTo(1);
      assertThat(retry.getBody()).isEqualTo(Map.of("id", records.find().first().getString("_id")));
    }

    @Test
    void runsTheActionWithoutAClaimWhenThereIsNoKey() {
      endpoint.execute(request(null, "f1"), claim -> {
        assertThat(claim).isNull();
        return ResponseEntity.ok().build();
      });

      assertThat(collection.countDocuments()).isZero();
    }
  }

  /** A clock the tests move by hand. */
  static final class MutableClock extends Clock {

    private volatile Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
