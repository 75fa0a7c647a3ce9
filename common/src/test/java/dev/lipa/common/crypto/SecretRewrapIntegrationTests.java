package dev.lipa.common.crypto;

import static dev.lipa.common.crypto.SecretEnvelopeTests.K1;
import static dev.lipa.common.crypto.SecretEnvelopeTests.K2;
import static dev.lipa.common.crypto.SecretEnvelopeTests.envelope;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.lipa.common.testsupport.SharedInfra;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The re-wrap against the real Mongo wire server of {@link SharedInfra}. */
class SecretRewrapIntegrationTests {

  private static MongoClient mongo;
  private MongoCollection<Document> collection;

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
    collection = mongo.getDatabase("crypto-tests").getCollection("secrets_" + UUID.randomUUID().toString()
        .replace("-", ""));
  }

  /** Documents with {@code current} and {@code previous} secrets, sealed for {@code secrets:<_id>}. */
  class Records implements SealedRecords {

    @Override
    public MongoCollection<Document> collection() {
      return collection;
    }

    @Override
    public List<String> fields() {
      return List.of("current", "previous");
    }

    @Override
    public String context(Document document) {
      return "secrets:" + document.getString("_id");
    }

    @Override
    public Optional<String> openLegacy(Document document, String field, String value) {
      return value.startsWith("legacy:") ? Optional.of(value.substring("legacy:".length())) : Optional.empty();
    }
  }

  void insert(String id, SecretEnvelope envelope, String current, String previous) {
    Document document = new Document("_id", id).append("current", envelope.seal(current, "secrets:" + id));
    if (previous != null) {
      document.append("previous", envelope.seal(previous, "secrets:" + id));
    }
    collection.insertOne(document);
  }

  Document stored(String id) {
    return collection.find(Filters.eq("_id", id)).first();
  }

  @Test
  void movesEverySecretToThePrimaryKeySoTheOldKeyCanGo() {
    SecretEnvelope old = envelope(K1);
    for (int i = 0; i < 20; i++) {
      insert("org-" + i, old, "whsec_current-" + i, i % 2 == 0 ? "whsec_previous-" + i : null);
    }
    SecretEnvelope rotated = envelope(K2, K1);

    SecretRewrap.Result result = new SecretRewrap(rotated).run(new Records());

    assertThat(result).isEqualTo(new SecretRewrap.Result(collection.getNamespace().getCollectionName(), 30, 0, 0, 0));
    SecretEnvelope newOnly = envelope(K2);
    for (int i = 0; i < 20; i++) {
      Document document = stored("org-" + i);
      assertThat(document.getString("current")).startsWith("lipa-sealed:v1:k2:");
      assertThat(newOnly.open(document.getString("current"), "secrets:org-" + i)).isEqualTo("whsec_current-" + i);
      if (i % 2 == 0) {
        assertThat(newOnly.open(document.getString("previous"), "secrets:org-" + i))
            .isEqualTo("whsec_previous-" + i);
      }
    }
  }

  @Test
  void isIdempotent() {
    insert("org-1", envelope(K1), "whsec_one", null);
    SecretRewrap rewrap = new SecretRewrap(envelope(K2, K1));
    rewrap.run(new Records());
    String afterFirst = stored("org-1").getString("current");

    SecretRewrap.Result second = rewrap.run(new Records());

    assertThat(second.rewrapped()).isZero();
    assertThat(second.current()).isEqualTo(1);
    assertThat(stored("org-1").getString("current")).isEqualTo(afterFirst);
  }

  @Test
  void sealsValuesStoredUnencryptedOrInAStoresOlderForm() {
    collection.insertOne(new Document("_id", "org-1").append("current", "legacy:whsec_old-form")
        .append("previous", new SecretEnvelope(MasterKeyRing.empty()).seal("whsec_plain", "secrets:org-1")));

    SecretRewrap.Result result = new SecretRewrap(envelope(K1)).run(new Records());

    assertThat(result.rewrapped()).isEqualTo(2);
    Document document = stored("org-1");
    assertThat(document.toJson()).doesNotContain("whsec_old-form").doesNotContain("d2hzZWNfcGxhaW4");
    assertThat(envelope(K1).open(document.getString("current"), "secrets:org-1")).isEqualTo("whsec_old-form");
    assertThat(envelope(K1).open(document.getString("previous"), "secrets:org-1")).isEqualTo("whsec_plain");
  }

  @Test
  void leavesAValueThatDoesNotOpenAsItIsAndSaysSo() {
    insert("org-1", envelope(K1), "whsec_one", null);
    insert("org-2", envelope("k9:" + SecretEnvelopeTests.key(9)), "whsec_two", null);
    String unknownForm = "something else";
    collection.insertOne(new Document("_id", "org-3").append("current", unknownForm));

    SecretRewrap.Result result = new SecretRewrap(envelope(K2, K1)).run(new Records());

    assertThat(result.rewrapped()).isEqualTo(1);
    assertThat(result.unreadable()).isEqualTo(2);
    assertThat(result.complete()).isFalse();
    assertThat(stored("org-2").getString("current")).startsWith("lipa-sealed:v1:k9:");
    assertThat(stored("org-3").getString("current")).isEqualTo(unknownForm);
  }

  @Test
  void neverOverwritesASecretChangedWhileItRan() {
    insert("org-1", envelope(K1), "whsec_before", null);
    String rotatedMeanwhile = envelope(K2, K1).seal("whsec_rotated", "secrets:org-1");
    Records racing = new Records() {
      @Override
      public String context(Document document) {
        // the organisation rotates its secret between the job's read and its write
        collection.updateOne(Filters.eq("_id", document.getString("_id")), Updates.set("current", rotatedMeanwhile));
        return super.context(document);
      }
    };

    SecretRewrap.Result result = new SecretRewrap(envelope(K2, K1)).run(racing);

    assertThat(result.changedMeanwhile()).isEqualTo(1);
    assertThat(stored("org-1").getString("current")).isEqualTo(rotatedMeanwhile);
  }

  @Test
  void replicasRunningAtOnceAgreeOnTheOutcome() throws Exception {
    SecretEnvelope old = envelope(K1);
    for (int i = 0; i < 30; i++) {
      insert("org-" + i, old, "whsec_" + i, null);
    }
    int replicas = 4;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<SecretRewrap.Result>> results = new ArrayList<>();
    try (ExecutorService executor = Executors.newFixedThreadPool(replicas)) {
      for (int r = 0; r < replicas; r++) {
        results.add(executor.submit(() -> {
          start.await();
          return new SecretRewrap(envelope(K2, K1)).run(new Records());
        }));
      }
      start.countDown();
      int rewrapped = 0;
      for (Future<SecretRewrap.Result> result : results) {
        rewrapped += result.get().rewrapped();
        assertThat(result.get().unreadable()).isZero();
      }
      // each value was replaced once: the compare-and-set let one replica win it
      assertThat(rewrapped).isEqualTo(30);
    }
    for (int i = 0; i < 30; i++) {
      assertThat(envelope(K2).open(stored("org-" + i).getString("current"), "secrets:org-" + i))
          .isEqualTo("whsec_" + i);
    }
  }
}
