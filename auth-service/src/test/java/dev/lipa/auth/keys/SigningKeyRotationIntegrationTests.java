package dev.lipa.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.auth.AuthProperties;
import dev.lipa.common.crypto.MasterKeyRing;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.security.TokenClaims;
import dev.lipa.common.security.TokenVerifier;
import dev.lipa.common.testsupport.MutableClock;
import dev.lipa.common.testsupport.SharedInfra;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.groups.Tuple;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Signing-key rotation over the real Mongo wire server, with a clock the test moves: publication before signing,
 * the switch after the lead time, the old key kept until its last token expired, replicas that agree.
 */
class SigningKeyRotationIntegrationTests {

  private static final Duration LEAD = Duration.ofMinutes(10);
  private static final Duration RELOAD = Duration.ofSeconds(30);
  private static final Duration REFRESH_TTL = Duration.ofSeconds(1800);
  private static final AuthProperties AUTH = new AuthProperties("lipa-auth", "lipa-api", Duration.ofSeconds(300),
      REFRESH_TTL, "sandbox", ZoneId.of("Africa/Nairobi"), null);
  private static final SecretEnvelope ENVELOPE = new SecretEnvelope(MasterKeyRing.parse(SharedInfra.MASTER_KEYS));

  private static MongoClient mongo;
  private MongoDatabase database;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-15T09:00:00Z"));

  @BeforeAll
  static void connect() {
    mongo = MongoClients.create(SharedInfra.mongoUri());
  }

  @AfterAll
  static void disconnect() {
    mongo.close();
  }

  @BeforeEach
  void freshDatabase() {
    database = mongo.getDatabase("lipa-auth-rotation-" + UUID.randomUUID());
  }

  /** One auth-service replica over the test's database. */
  SigningKeys replica() {
    return new SigningKeys(new SigningKeyStore(database, ENVELOPE), new SigningKeySettings(LEAD, RELOAD), AUTH,
        clock);
  }

  /** A refresh-length token signed with the replica's active key, as TokenMinter signs them. */
  String token(SigningKeys keys) throws Exception {
    Instant now = clock.instant();
    SigningKeys.Active active = keys.active();
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(active.kid())
        .type(JOSEObjectType.JWT).build(), new JWTClaimsSet.Builder().issuer("lipa-auth").audience("lipa-api")
        .subject("org-1").issueTime(Date.from(now)).notBeforeTime(Date.from(now))
        .expirationTime(Date.from(now.plus(REFRESH_TTL))).jwtID(UUID.randomUUID().toString())
        .claim(TokenClaims.TOKEN_TYPE, TokenClaims.REFRESH).build());
    jwt.sign(active.signer());
    return jwt.serialize();
  }

  /** A fresh verifier (nothing cached) reading the replica's published keys. */
  void verifies(SigningKeys keys, String token) {
    new TokenVerifier(keys.asJwksKeys(), "lipa-auth", "lipa-api", clock, Duration.ofMinutes(5))
        .verify(token, TokenClaims.REFRESH);
  }

  static String kid(String token) throws Exception {
    return SignedJWT.parse(token).getHeader().getKeyID();
  }

  static List<String> jwks(SigningKeys keys) {
    return keys.publicKeySet().getKeys().stream().map(JWK::getKeyID).toList();
  }

  Document stored(String kid) {
    return database.getCollection("signing_keys").find(new Document("_id", kid)).first();
  }

  @Test
  void aRotationPublishesFirstSignsAfterTheLeadAndRetiresTheOldKeyOnceItsLastTokenExpired() throws Exception {
    SigningKeys keys = replica();
    String oldKid = keys.active().kid();
    String before = token(keys);

    SigningKeyView next = keys.rotate();

    assertThat(next.status()).isEqualTo(SigningKeyStatus.NEXT);
    assertThat(next.activatesAt()).isEqualTo(clock.instant().plus(LEAD));
    // published at once, before any token carries it
    assertThat(jwks(keys)).containsExactlyInAnyOrder(oldKid, next.kid());
    assertThat(kid(token(keys))).isEqualTo(oldKid);

    clock.advance(LEAD.minusSeconds(1));
    assertThat(kid(token(keys))).isEqualTo(oldKid);

    clock.advance(Duration.ofSeconds(1));
    String after = token(keys);
    assertThat(kid(after)).isEqualTo(next.kid());
    verifies(keys, after);
    // a token signed before the rotation still verifies after it
    verifies(keys, before);
    assertThat(keys.list()).extracting(SigningKeyView::kid, SigningKeyView::status)
        .containsExactly(Tuple.tuple(next.kid(), SigningKeyStatus.ACTIVE),
            Tuple.tuple(oldKid, SigningKeyStatus.RETIRING));

    // it never signs again, so its private half goes once verifiers' clocks agree it stopped
    clock.advance(SigningKeys.VERIFIER_CLOCK_ALLOWANCE.plus(RELOAD));
    keys.publicKeySet();
    assertThat(stored(oldKid)).doesNotContainKey("privateKey");
    assertThat(jwks(keys)).contains(oldKid);

    // published until the last token it signed (the longest lifetime after it stopped signing) has expired
    Instant retiresAt = next.activatesAt().plus(REFRESH_TTL).plus(SigningKeys.VERIFIER_CLOCK_ALLOWANCE);
    clock.advance(Duration.between(clock.instant(), retiresAt).minusSeconds(1));
    assertThat(jwks(keys)).contains(oldKid);
    clock.advance(Duration.ofSeconds(1).plus(RELOAD));
    assertThat(jwks(keys)).containsExactly(next.kid());
    assertThat(keys.publicKey(oldKid)).isNull();
    assertThat(stored(oldKid).getDate("retiredAt")).isNotNull();
    assertThat(keys.list().getLast().status()).isEqualTo(SigningKeyStatus.RETIRED);
  }

  @Test
  void anotherReplicaPublishesTheNewKeyWithinItsReloadIntervalAndSwitchesAtTheSameInstant() throws Exception {
    SigningKeys rotating = replica();
    SigningKeys other = replica();
    String oldKid = other.active().kid();

    SigningKeyView next = rotating.rotate();
    clock.advance(RELOAD);

    assertThat(jwks(other)).contains(next.kid());
    assertThat(kid(token(other))).isEqualTo(oldKid);
    clock.advance(LEAD.minus(RELOAD));
    assertThat(kid(token(other))).isEqualTo(next.kid());
    verifies(rotating, token(other));
  }

  @Test
  void refusesASecondRotationWhileOneIsUnderWay() {
    SigningKeys keys = replica();
    SigningKeyView next = keys.rotate();

    assertThatThrownBy(keys::rotate).isInstanceOf(RotationUnderWayException.class)
        .hasMessageContaining(next.kid());

    clock.advance(LEAD);
    assertThat(keys.rotate().status()).isEqualTo(SigningKeyStatus.NEXT);
  }

  @Test
  void rotationsRacingOnSeveralReplicasMakeOneNewKey() throws Exception {
    int replicas = 6;
    List<SigningKeys> instances = new ArrayList<>();
    for (int i = 0; i < replicas; i++) {
      instances.add(replica());
    }
    CountDownLatch start = new CountDownLatch(1);
    List<Future<String>> outcomes = new ArrayList<>();
    try (ExecutorService executor = Executors.newFixedThreadPool(replicas)) {
      for (SigningKeys instance : instances) {
        outcomes.add(executor.submit(() -> {
          start.await();
          try {
            return instance.rotate().kid();
          } catch (RotationUnderWayException e) {
            return "refused";
          }
        }));
      }
      start.countDown();
      List<String> results = new ArrayList<>();
      for (Future<String> outcome : outcomes) {
        results.add(outcome.get());
      }
      assertThat(results).filteredOn(r -> !r.equals("refused")).hasSize(1);
    }
    assertThat(database.getCollection("signing_keys").countDocuments()).isEqualTo(2);
    clock.advance(LEAD);
    assertThat(instances).extracting(k -> k.active().kid()).containsOnly(instances.getFirst().active().kid());
  }

  @Test
  void aTokenWithTheNewKidNeverReachesAVerifierBeforeTheKeyIsInTheJwks() throws Exception {
    SigningKeys keys = replica();
    SigningKeyView next = keys.rotate();

    for (int second = 0; second <= LEAD.toSeconds() + 60; second += 15) {
      String token = token(keys);
      if (kid(token).equals(next.kid())) {
        assertThat(jwks(keys)).contains(next.kid());
      }
      clock.advance(Duration.ofSeconds(15));
    }
    assertThat(kid(token(keys))).isEqualTo(next.kid());
  }
}
