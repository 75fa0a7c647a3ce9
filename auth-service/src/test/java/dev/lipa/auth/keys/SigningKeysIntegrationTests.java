package dev.lipa.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthProperties;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.crypto.MasterKeyRing;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.crypto.SecretRewrap;
import dev.lipa.common.crypto.SecretUnreadableException;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.TestHttp;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bson.Document;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@AuthServiceIntegrationTest
class SigningKeysIntegrationTests {

  private static final SecretEnvelope TEST_RING = new SecretEnvelope(MasterKeyRing.parse(SharedInfra.MASTER_KEYS));
  private static final String K2 = "k2:" + Base64.getEncoder().encodeToString(
      "another-test-master-key-32bytes!".getBytes(StandardCharsets.US_ASCII));

  @LocalServerPort
  int port;

  @Autowired
  MongoDatabase database;

  @Autowired
  MongoClient client;

  @Autowired
  SigningKeys signingKeys;

  @Autowired
  AuthProperties properties;

  SigningKeys replica(MongoDatabase db, SecretEnvelope envelope) {
    return new SigningKeys(new SigningKeyStore(db, envelope), new SigningKeySettings(Duration.ofMinutes(10),
        Duration.ofSeconds(30)), properties, Clock.systemUTC());
  }

  MongoDatabase freshDatabase() {
    return client.getDatabase("lipa-auth-keys-" + UUID.randomUUID());
  }

  @Nested
  class Jwks {

    @Test
    void servesThePublicKeyTokensAreSignedWith() throws Exception {
      AuthFixtures fixtures = new AuthFixtures(port);
      String token = fixtures.tokens(fixtures.issueKey(fixtures.newOrganisation())).get("access_token").asString();

      TestHttp.Response response = fixtures.http().get("/.well-known/jwks.json", Map.of());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
          type -> assertThat(type).startsWith("application/json"));
      // a rotation test of this context may have published a NEXT key too
      JsonNode key = null;
      for (JsonNode candidate : response.json().get("keys")) {
        assertThat(candidate.has("d")).as("private part").isFalse();
        if (candidate.get("kid").asString().equals(SignedJWT.parse(token).getHeader().getKeyID())) {
          key = candidate;
        }
      }
      assertThat(key).as("the token's key").isNotNull();
      assertThat(key.get("kty").asString()).isEqualTo("EC");
      assertThat(key.get("crv").asString()).isEqualTo("P-256");
      assertThat(key.get("alg").asString()).isEqualTo("ES256");
      assertThat(key.get("use").asString()).isEqualTo("sig");
    }

    @Test
    void needsNoCredentials() {
      assertThat(new TestHttp("http://127.0.0.1:" + port).get("/.well-known/jwks.json", Map.of()).status())
          .isEqualTo(200);
    }
  }

  @Nested
  class Persistence {

    @Test
    void aRestartReadsTheSameKeyBack() {
      long stored = database.getCollection("signing_keys").countDocuments();

      SigningKeys restarted = replica(database, TEST_RING);

      assertThat(restarted.active().kid()).isEqualTo(signingKeys.active().kid());
      assertThat(database.getCollection("signing_keys").countDocuments()).isEqualTo(stored);
    }

    @Test
    void storesThePrivateKeySealedUnderTheMasterKeyNeverInTheClear() throws Exception {
      String kid = signingKeys.active().kid();
      Document stored = database.getCollection("signing_keys").find(new Document("_id", kid)).first();

      String sealed = stored.getString("privateKey");
      assertThat(sealed).startsWith("lipa-sealed:v1:test-k1:");
      String privateScalar = ECKey.parse(TEST_RING.open(sealed, "signing_keys:" + kid)).getD().toString();
      assertThat(stored.toJson()).doesNotContain(privateScalar).doesNotContain("\"d\"");
      assertThat(stored).doesNotContainKeys("privateJwk", "slot", "status");
      assertThat(ECKey.parse(stored.getString("publicJwk")).isPrivate()).isFalse();
    }

    @Test
    void aCiphertextCopiedToAnotherKeysRecordDoesNotOpen() {
      MongoDatabase fresh = freshDatabase();
      SigningKeys keys = replica(fresh, TEST_RING);
      keys.rotate();
      List<Document> stored = fresh.getCollection("signing_keys").find().into(new ArrayList<>());
      String other = stored.get(1).getString("privateKey");
      fresh.getCollection("signing_keys").updateOne(new Document("_id", stored.get(0).getString("_id")),
          new Document("$set", new Document("privateKey", other)));

      SigningKeyStore store = new SigningKeyStore(fresh, TEST_RING);
      SigningKey swapped = store.all().stream().filter(k -> k.kid().equals(stored.get(0).getString("_id")))
          .findFirst().orElseThrow();
      assertThatThrownBy(() -> store.privateKey(swapped)).isInstanceOf(SecretUnreadableException.class);
    }

    @Test
    void concurrentFirstStartsAgreeOnOneKey() throws Exception {
      MongoDatabase fresh = freshDatabase();
      int replicas = 6;
      CountDownLatch start = new CountDownLatch(1);
      List<Future<String>> kids = new ArrayList<>();
      try (ExecutorService executor = Executors.newFixedThreadPool(replicas)) {
        for (int i = 0; i < replicas; i++) {
          kids.add(executor.submit(() -> {
            start.await();
            return replica(fresh, TEST_RING).active().kid();
          }));
        }
        start.countDown();
        List<String> seen = new ArrayList<>();
        for (Future<String> kid : kids) {
          seen.add(kid.get());
        }
        assertThat(seen).containsOnly(seen.getFirst());
      }
      assertThat(fresh.getCollection("signing_keys").countDocuments()).isEqualTo(1);
    }
  }

  @Nested
  class Upgrade {

    @Test
    void sealsAKeyAnEarlierVersionStoredInTheClearOnceAndKeepsSigningWithIt() throws Exception {
      MongoDatabase fresh = freshDatabase();
      ECKey legacy = SigningKeys.generate();
      fresh.getCollection("signing_keys").insertOne(new Document("_id", legacy.getKeyID())
          .append("slot", "active").append("status", "ACTIVE").append("algorithm", "ES256")
          .append("privateJwk", legacy.toJSONString()).append("createdAt", new Date()));

      SigningKeys upgraded = replica(fresh, TEST_RING);

      assertThat(upgraded.active().kid()).isEqualTo(legacy.getKeyID());
      Document stored = fresh.getCollection("signing_keys").find().first();
      assertThat(stored).doesNotContainKeys("privateJwk", "slot", "status");
      assertThat(stored.toJson()).doesNotContain(legacy.getD().toString());
      assertThat(stored.getString("privateKey")).startsWith("lipa-sealed:v1:test-k1:");
      // tokens are still signed with the very same key, so tokens issued before the upgrade keep verifying
      SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.ES256), new JWTClaimsSet.Builder().subject("x").build());
      jwt.sign(upgraded.active().signer());
      assertThat(jwt.verify(new ECDSAVerifier(legacy.toPublicJWK()))).isTrue();

      String sealedOnce = stored.getString("privateKey");
      replica(fresh, TEST_RING);
      assertThat(fresh.getCollection("signing_keys").find().first().getString("privateKey")).isEqualTo(sealedOnce);
    }
  }

  @Nested
  class MasterKeyRotation {

    @Test
    void aNewMasterKeyInFrontOpensTheOldOnesAndTheRewrapLetsTheOldOneGo() {
      MongoDatabase fresh = freshDatabase();
      String kid = replica(fresh, TEST_RING).active().kid();

      SecretEnvelope both = new SecretEnvelope(MasterKeyRing.parse(K2 + "," + SharedInfra.MASTER_KEYS));
      SigningKeyStore store = new SigningKeyStore(fresh, both);
      assertThat(replica(fresh, both).active().kid()).isEqualTo(kid);

      SecretRewrap.Result result = new SecretRewrap(both).run(store);

      assertThat(result.rewrapped()).isEqualTo(1);
      assertThat(fresh.getCollection("signing_keys").find().first().getString("privateKey"))
          .startsWith("lipa-sealed:v1:k2:");
      SecretEnvelope onlyNew = new SecretEnvelope(MasterKeyRing.parse(K2));
      assertThat(replica(fresh, onlyNew).active().kid()).isEqualTo(kid);
    }

    @Test
    void aRingWithoutTheKeyASigningKeyIsSealedUnderRefusesToSign() {
      MongoDatabase fresh = freshDatabase();
      replica(fresh, TEST_RING);

      SecretEnvelope onlyNew = new SecretEnvelope(MasterKeyRing.parse(K2));
      assertThatThrownBy(() -> replica(fresh, onlyNew)).isInstanceOf(SecretUnreadableException.class)
          .hasMessageContaining("'test-k1'");
    }
  }

  @Test
  void publishesEveryKeyItSignsWith() {
    List<String> published = signingKeys.publicKeySet().getKeys().stream().map(JWK::getKeyID).toList();

    assertThat(published).contains(signingKeys.active().kid());
  }
}
