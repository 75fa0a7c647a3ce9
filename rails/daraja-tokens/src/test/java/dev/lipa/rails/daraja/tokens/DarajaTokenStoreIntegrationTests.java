package dev.lipa.rails.daraja.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.crypto.MasterKeyRing;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.crypto.SecretRewrap;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.rails.daraja.SharedTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/** The store's rules against the platform's MongoDB wire server ({@link SharedInfra}), each test in a database of its own. */
class DarajaTokenStoreIntegrationTests {

  private static final SharedTokens.App APP = new SharedTokens.App("sha256:" + "ab".repeat(32), "600100");
  private static final Instant T0 = Instant.parse("2026-03-01T08:00:00Z");
  private static final Duration CLAIM = Duration.ofSeconds(40);
  private static final Instant EXPIRES = T0.plusSeconds(3599);

  private final MongoDatabase database = SharedInfra.mongoClient().getDatabase("daraja-tokens-" + UUID.randomUUID());
  private final SecretEnvelope envelope = new SecretEnvelope(MasterKeyRing.parse(SharedInfra.MASTER_KEYS));
  private final DarajaTokenStore store = new DarajaTokenStore(database, envelope);

  private SharedTokens.Claim claim(long seen, Instant now) {
    return store.claim(APP, seen, now, now.plus(CLAIM)).orElseThrow();
  }

  private Document document() {
    return database.getCollection(DarajaTokenStore.COLLECTION).find(new Document("_id", APP.id())).first();
  }

  @Test
  void createsItsExpiryIndexAtStartUp() {
    List<String> names = new ArrayList<>();
    database.getCollection(DarajaTokenStore.COLLECTION).listIndexes().forEach(i -> names.add(i.getString("name")));
    assertThat(names).contains(DarajaTokenStore.EXPIRY_INDEX);
  }

  @Test
  void anAppWithoutATokenHasNoneAndItsFirstTokenIsGenerationOne() {
    assertThat(store.current(APP)).isEmpty();

    SharedTokens.Token published = store.publish(claim(0, T0), "token-1", T0, EXPIRES).orElseThrow();

    assertThat(published.generation()).isEqualTo(1);
    SharedTokens.Token current = store.current(APP).orElseThrow();
    assertThat(current.value()).isEqualTo("token-1");
    assertThat(current.generation()).isEqualTo(1);
    assertThat(current.expiresAt()).isEqualTo(EXPIRES);
    assertThat(current.usable()).isTrue();
  }

  @Test
  void manyReplicasRacingToClaimTheFirstRefreshGetOneClaim() throws Exception {
    int replicas = 12;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Optional<SharedTokens.Claim>>> claims = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(replicas)) {
      for (int i = 0; i < replicas; i++) {
        claims.add(pool.submit(() -> {
          start.await();
          return store.claim(APP, 0, T0, T0.plus(CLAIM));
        }));
      }
      start.countDown();
      int granted = 0;
      for (Future<Optional<SharedTokens.Claim>> c : claims) {
        granted += c.get().isPresent() ? 1 : 0;
      }
      assertThat(granted).isEqualTo(1);
    }
  }

  @Test
  void aLiveClaimKeepsOthersOutUntilItEnds() {
    claim(0, T0);

    assertThat(store.claim(APP, 0, T0.plusSeconds(39), T0.plusSeconds(79))).isEmpty();
    assertThat(store.claim(APP, 0, T0.plus(CLAIM), T0.plus(CLAIM).plus(CLAIM))).as("the claimant died").isPresent();
  }

  @Test
  void aClaimOnAGenerationAlreadyReplacedIsRefused() {
    store.publish(claim(0, T0), "token-1", T0, EXPIRES);

    assertThat(store.claim(APP, 0, T0, T0.plus(CLAIM))).as("someone refreshed since it looked").isEmpty();
    assertThat(store.claim(APP, 1, T0, T0.plus(CLAIM))).isPresent();
  }

  @Test
  void aClaimantThatOutlivedItsClaimCannotPublishOnceAnotherClaimed() {
    SharedTokens.Claim slow = claim(0, T0);
    SharedTokens.Claim next = claim(0, T0.plus(CLAIM));

    assertThat(store.publish(slow, "late", T0, EXPIRES)).isEmpty();
    assertThat(store.publish(next, "token-1", T0.plus(CLAIM), EXPIRES)).isPresent();
    assertThat(store.current(APP).orElseThrow().value()).isEqualTo("token-1");
  }

  @Test
  void aClaimantPastItsClaimStillPublishesWhileNobodyClaimedSince() {
    SharedTokens.Claim slow = claim(0, T0);

    assertThat(store.publish(slow, "token-1", T0.plus(CLAIM).plusSeconds(5), EXPIRES)).isPresent();
  }

  @Test
  void aReleasedClaimLetsTheNextCallerClaimAtOnce() {
    SharedTokens.Claim failed = claim(0, T0);

    store.release(failed);

    assertThat(store.claim(APP, 0, T0.plusSeconds(1), T0.plus(CLAIM))).isPresent();
    assertThat(store.publish(failed, "late", T0, EXPIRES)).as("a released claim publishes nothing").isEmpty();
  }

  @Test
  void aRefusalMarksTheTokenOnlyWhileItIsStillTheCurrentOne() {
    store.publish(claim(0, T0), "token-1", T0, EXPIRES);
    store.refuse(APP, 1);
    assertThat(store.current(APP).orElseThrow().usable()).isFalse();
    store.publish(claim(1, T0), "token-2", T0, EXPIRES);

    store.refuse(APP, 1); // a late refusal of token-1

    SharedTokens.Token current = store.current(APP).orElseThrow();
    assertThat(current.value()).isEqualTo("token-2");
    assertThat(current.refused()).isFalse();
  }

  @Test
  void keepsTheTokenSealedAndNeitherItNorTheConsumerKeyInTheClear() {
    store.publish(claim(0, T0), "token-in-the-clear-0123456789", T0, EXPIRES);

    Document stored = document();
    assertThat(stored.getString(DarajaTokenStore.TOKEN)).startsWith("lipa-sealed:v1:test-k1:");
    assertThat(stored.toJson()).doesNotContain("token-in-the-clear");
    assertThat(stored.getString("shortcode")).isEqualTo("600100");
    assertThat(stored.getDate("discardAt").toInstant()).isEqualTo(EXPIRES.plus(DarajaTokenStore.KEPT));
  }

  @Test
  void aTokenThatNoLongerOpensIsUnusableAndTheNextCallerReplacesIt() {
    SecretEnvelope lost = new SecretEnvelope(MasterKeyRing.parse(
        "lost-k:bG9zdC1tYXN0ZXIta2V5LWZvci10ZXN0cy0zMmJ5dGU="));
    new DarajaTokenStore(database, lost).publish(claim(0, T0), "token-1", T0, EXPIRES);

    SharedTokens.Token unreadable = store.current(APP).orElseThrow();

    assertThat(unreadable.usable()).isFalse();
    assertThat(store.claim(APP, unreadable.generation(), T0, T0.plus(CLAIM))).isPresent();
  }

  @Test
  void theReWrapMovesTheTokenUnderANewPrimaryKey() {
    store.publish(claim(0, T0), "token-1", T0, EXPIRES);
    SecretEnvelope rotated = new SecretEnvelope(MasterKeyRing.parse(
        "test-k2:bmV3LXByaW1hcnkta2V5LWZvci10ZXN0cy0zMmJ5dGU=," + SharedInfra.MASTER_KEYS));

    SecretRewrap.Result result = new SecretRewrap(rotated).run(new DarajaTokenStore(database, rotated));

    assertThat(result.rewrapped()).isEqualTo(1);
    assertThat(document().getString(DarajaTokenStore.TOKEN)).startsWith("lipa-sealed:v1:test-k2:");
    assertThat(new DarajaTokenStore(database, rotated).current(APP).orElseThrow().value()).isEqualTo("token-1");
  }
}
