package dev.lipa.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Clock;
import java.util.ArrayList;
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

  @LocalServerPort
  int port;

  @Autowired
  MongoDatabase database;

  @Autowired
  MongoClient client;

  @Autowired
  SigningKeys signingKeys;

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
      JsonNode keys = response.json().get("keys");
      assertThat(keys).hasSize(1);
      JsonNode key = keys.get(0);
      assertThat(key.get("kid").asString()).isEqualTo(SignedJWT.parse(token).getHeader().getKeyID());
      assertThat(key.get("kty").asString()).isEqualTo("EC");
      assertThat(key.get("crv").asString()).isEqualTo("P-256");
      assertThat(key.get("alg").asString()).isEqualTo("ES256");
      assertThat(key.get("use").asString()).isEqualTo("sig");
      assertThat(key.has("d")).as("private part").isFalse();
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
      SigningKeys restarted = new SigningKeys(new SigningKeyStore(database), Clock.systemUTC());

      assertThat(restarted.active().kid()).isEqualTo(signingKeys.active().kid());
      assertThat(restarted.publicKeySet().getKeys()).hasSize(1);
      assertThat(database.getCollection("signing_keys").countDocuments()).isEqualTo(1);
    }

    @Test
    void storesThePrivateKeyAsAJwk() {
      Document stored = database.getCollection("signing_keys")
          .find(new Document("_id", signingKeys.active().kid())).first();

      assertThat(stored.getString("slot")).isEqualTo("active");
      assertThat(stored.getString("status")).isEqualTo("ACTIVE");
      assertThat(stored.getString("privateJwk")).contains("\"d\"").contains("\"crv\":\"P-256\"");
    }

    @Test
    void concurrentFirstStartsAgreeOnOneActiveKey() throws Exception {
      MongoDatabase fresh = client.getDatabase("lipa-auth-first-start-" + UUID.randomUUID());
      int replicas = 6;
      CountDownLatch start = new CountDownLatch(1);
      List<Future<String>> kids = new ArrayList<>();
      try (ExecutorService executor = Executors.newFixedThreadPool(replicas)) {
        for (int i = 0; i < replicas; i++) {
          kids.add(executor.submit(() -> {
            start.await();
            return new SigningKeys(new SigningKeyStore(fresh), Clock.systemUTC()).active().kid();
          }));
        }
        start.countDown();
        List<String> seen = new ArrayList<>();
        for (Future<String> kid : kids) {
          seen.add(kid.get());
        }
        assertThat(seen).containsOnly(seen.getFirst());
      }
      assertThat(fresh.getCollection("signing_keys").countDocuments(new Document("slot", "active"))).isEqualTo(1);
      assertThat(fresh.getCollection("signing_keys").countDocuments()).isEqualTo(1);
    }
  }
}
