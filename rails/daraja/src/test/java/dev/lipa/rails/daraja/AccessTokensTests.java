package dev.lipa.rails.daraja;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class AccessTokensTests {

  private static JsonNode expiresIn(String example) {
    return JsonMapper.builder().build().readTree(DocExamples.read(example)).path("expires_in");
  }

  @Test
  void expiresInIsReadAsTheStringDarajaSendsAndAsTheNumberThePortalShows() {
    assertThat(OAuth.expiresIn(expiresIn("oauth-token-string-expiry"))).isEqualTo(3599);
    assertThat(OAuth.expiresIn(expiresIn("oauth-token"))).isEqualTo(3599);
  }

  @Test
  void anExpiryThatIsNotAWholeNumberOfSecondsIsUnusable() {
    JsonMapper json = JsonMapper.builder().build();
    for (String bad : new String[] {"\"\"", "\"-1\"", "\"1e3\"",
        "\"3599 \"x", "1.5", "null", "{}", "\"99999999999\""}) {
      JsonNode node;
      try {
        node = json.readTree("{\"e\":" + bad + "}").path("e");
      } catch (RuntimeException notJson) {
        continue;
      }
      assertThat(OAuth.expiresIn(node)).as(bad).isLessThanOrEqualTo(0);
    }
  }

  /**
   * Two replicas ({@link AccessTokens} of two clients of one app) sharing one store, against an OAuth that counts the
   * tokens it generates, with a clock the test moves.
   */
  @Nested
  class SharedByReplicas {

    /** 1 s to connect and 2 s to answer: a claim lasts 1 + 2 + 5 = 8 s. */
    private static final DarajaConfig CONFIG = new DarajaConfig(URI.create("http://daraja.invalid"), "consumer-key",
        "consumer-secret", "600100", null, null, null, null, null, null, Duration.ofSeconds(1),
        Duration.ofSeconds(2), null);
    private static final Duration CLAIM = Duration.ofSeconds(8);
    private static final Duration TIME_LIMIT = Duration.ofSeconds(10);

    private final MutableClock clock = new MutableClock();
    private final SharedTokens store = SharedTokens.inMemory();
    private final SharedTokens.App app = SharedTokens.App.of(CONFIG);
    private final CountingOAuth oauth = new CountingOAuth(clock, Duration.ofSeconds(3599));
    private final AccessTokens a = new AccessTokens(CONFIG, store, oauth, clock);
    private final AccessTokens b = new AccessTokens(CONFIG, store, oauth, clock);

    @Test
    void theClaimLastsAsLongAsTheOAuthCallMayTakeAndSomeSlack() {
      assertThat(AccessTokens.claimLifetime(CONFIG)).isEqualTo(CLAIM);
    }

    @Test
    void aReplicaThatFindsAFreshSharedTokenUsesItWithoutAskingOAuth() throws Exception {
      String first = a.token();

      assertThat(b.token()).isEqualTo(first);
      assertThat(a.token()).isEqualTo(first);
      assertThat(oauth.generated()).isEqualTo(1);
    }

    @Test
    void theSharedTokenIsReplacedSixtySecondsBeforeItsOwnExpiryHoweverLateAReplicaReadIt() throws Exception {
      String first = a.token();
      clock.advance(Duration.ofSeconds(3500));
      assertThat(b.token()).as("read 3500 s into the token's life").isEqualTo(first);

      clock.advance(Duration.ofSeconds(40)); // 3540 s: past 3599 - 60, for b too although it read it 40 s ago
      String second = b.token();

      assertThat(second).isNotEqualTo(first);
      assertThat(a.token()).isEqualTo(second);
      assertThat(oauth.generated()).isEqualTo(2);
    }

    @Test
    void aReplicaWaitsForTheClaimantsTokenInsteadOfGeneratingOne() throws Exception {
      Instant now = clock.instant();
      SharedTokens.Claim other = store.claim(app, 0, now, now.plus(CLAIM)).orElseThrow();
      CompletableFuture<String> waiting = waiting(b);

      store.publish(other, "theirs", now, now.plusSeconds(3599));

      assertThat(waiting.get()).isEqualTo("theirs");
      assertThat(oauth.generated()).isZero();
    }

    @Test
    void aClaimWhoseHolderDiedHoldsTheOthersUpUntilItsEndOnlyAndItsLatePublishIsRefused() throws Exception {
      Instant now = clock.instant();
      SharedTokens.Claim dead = store.claim(app, 0, now, now.plus(CLAIM)).orElseThrow();
      CompletableFuture<String> waiting = waiting(b);

      clock.advance(CLAIM);

      String refreshed = assertTimeoutPreemptively(TIME_LIMIT, () -> waiting.get());
      assertThat(oauth.generated()).isEqualTo(1);
      assertThat(store.publish(dead, "late", now, now.plusSeconds(3599))).as("fenced off").isEmpty();
      assertThat(a.token()).isEqualTo(refreshed);
    }

    @Test
    void aWaiterGivesUpAfterTwoClaimLifetimesWithoutAToken() throws Exception {
      Instant now = clock.instant();
      store.claim(app, 0, now, now.plus(Duration.ofHours(1))); // a claimant with far longer timeouts, stuck
      CompletableFuture<String> waiting = waiting(b);

      clock.advance(CLAIM.multipliedBy(2));

      assertThatThrownBy(() -> assertTimeoutPreemptively(TIME_LIMIT, () -> waiting.get()))
          .hasRootCauseInstanceOf(AccessTokens.TokenUnavailable.class)
          .rootCause().hasMessageContaining("no new access token appeared");
      assertThat(oauth.generated()).isZero();
    }

    @Test
    void aRefusalOfAReplacedTokenDiscardsNothing() throws Exception {
      String first = a.token();
      assertThat(b.token()).isEqualTo(first);
      a.invalidate(first);
      String second = a.token();

      b.invalidate(first); // b's request with the old token was refused after a had replaced it

      assertThat(store.current(app).orElseThrow().refused()).isFalse();
      assertThat(b.token()).isEqualTo(second);
      assertThat(a.token()).isEqualTo(second);
      assertThat(oauth.generated()).isEqualTo(2);
    }

    @Test
    void aRefusedTokenIsNotTakenBackFromTheStoreByAnotherCallerOfTheSameReplica() throws Exception {
      AccessTokens[] replica = new AccessTokens[1];
      SharedTokens racing = new Delegating(store) {
        @Override
        public void refuse(App app, long generation) {
          token(replica[0]); // another caller of the replica asks for a token while the refusal is being recorded
          super.refuse(app, generation);
        }
      };
      replica[0] = new AccessTokens(CONFIG, racing, oauth, clock);
      String first = replica[0].token();

      replica[0].invalidate(first);

      assertThat(replica[0].token()).isNotEqualTo(first);
      assertThat(oauth.generated()).isEqualTo(2);
    }

    @Test
    void twoReplicasRefusedWithTheSameTokenCauseOneRefresh() throws Exception {
      String first = a.token();
      b.token();

      a.invalidate(first);
      b.invalidate(first);

      String second = b.token();
      assertThat(second).isNotEqualTo(first);
      assertThat(a.token()).isEqualTo(second);
      assertThat(oauth.generated()).isEqualTo(2);
    }

    @Test
    void aFailedRefreshEndsItsClaimSoTheNextCallerTriesAtOnce() throws Exception {
      oauth.failNext();
      assertThatThrownBy(a::token).isInstanceOf(AccessTokens.TokenUnavailable.class);

      String token = assertTimeoutPreemptively(TIME_LIMIT, () -> b.token()); // the clock has not moved

      assertThat(token).isNotNull();
      assertThat(oauth.attempts()).isEqualTo(2);
    }

    @Test
    void aStoreThatCannotBeAskedGivesNoTokenAndOAuthIsNotCalled() {
      SharedTokens broken = new Delegating(store) {
        @Override
        public Optional<Token> current(App app) {
          throw new IllegalStateException("store away");
        }
      };
      AccessTokens c = new AccessTokens(CONFIG, broken, oauth, clock);

      assertThatThrownBy(c::token).isInstanceOf(AccessTokens.TokenUnavailable.class)
          .hasMessageContaining("IllegalStateException");
      assertThat(oauth.attempts()).isZero();
    }

    @Test
    void theStoreKnowsTheAppByAHashOfItsConsumerKeyNeverTheKey() {
      assertThat(app.id()).startsWith("sha256:").doesNotContain("consumer-key");
      assertThat(app.shortcode()).isEqualTo("600100");
      DarajaConfig sameAppOtherShortcode = new DarajaConfig(CONFIG.baseUrl(), "consumer-key", "s", "600200", null,
          null, null, null, null, null, null, null, null);
      assertThat(SharedTokens.App.of(sameAppOtherShortcode).id()).as("one app, one token").isEqualTo(app.id());
    }

    /** {@code tokens} asked for a token on another thread, and still waiting for it a moment later. */
    private static CompletableFuture<String> waiting(AccessTokens tokens) throws InterruptedException {
      CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> token(tokens));
      Thread.sleep(200);
      assertThat(waiting).as("waits while another replica's claim is live").isNotDone();
      return waiting;
    }

    private static String token(AccessTokens tokens) {
      try {
        return tokens.token();
      } catch (AccessTokens.TokenUnavailable e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A store that passes everything on, for a test to step in between. */
  private static class Delegating implements SharedTokens {
    private final SharedTokens store;

    Delegating(SharedTokens store) {
      this.store = store;
    }

    @Override
    public Optional<Token> current(App app) {
      return store.current(app);
    }

    @Override
    public Optional<Claim> claim(App app, long seen, Instant now, Instant until) {
      return store.claim(app, seen, now, until);
    }

    @Override
    public Optional<Token> publish(Claim claim, String value, Instant issuedAt, Instant expiresAt) {
      return store.publish(claim, value, issuedAt, expiresAt);
    }

    @Override
    public void release(Claim claim) {
      store.release(claim);
    }

    @Override
    public void refuse(App app, long generation) {
      store.refuse(app, generation);
    }
  }

  /** An OAuth endpoint that issues {@code t1}, {@code t2}, ... and counts them; it can fail once. */
  private static final class CountingOAuth implements AccessTokens.Source {
    private final MutableClock clock;
    private final Duration life;
    private final AtomicInteger attempts = new AtomicInteger();
    private final AtomicInteger generated = new AtomicInteger();
    private volatile boolean failNext;

    CountingOAuth(MutableClock clock, Duration life) {
      this.clock = clock;
      this.life = life;
    }

    @Override
    public AccessTokens.Issued generate() throws AccessTokens.TokenUnavailable {
      attempts.incrementAndGet();
      if (failNext) {
        failNext = false;
        throw new AccessTokens.TokenUnavailable(new Refusal(Refusal.Kind.NO_TOKEN, 503, null, "OAuth is away", null));
      }
      Instant now = clock.instant();
      return new AccessTokens.Issued("t" + generated.incrementAndGet(), now, now.plus(life));
    }

    void failNext() {
      failNext = true;
    }

    int generated() {
      return generated.get();
    }

    int attempts() {
      return attempts.get();
    }
  }
}
