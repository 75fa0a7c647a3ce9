package dev.lipa.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import com.nimbusds.jwt.SignedJWT;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** The operator calls on signing keys, over HTTP against the whole service. */
@AuthServiceIntegrationTest
class SigningKeyAdminIntegrationTests {

  private static final String REFUSED =
      "{\"status\":401,\"message\":\"a valid X-Operator-Token header is required\",\"data\":null}";

  @LocalServerPort
  int port;

  @Autowired
  MongoDatabase database;

  AuthFixtures fixtures;
  TestHttp http;

  @BeforeEach
  void setUp() {
    fixtures = new AuthFixtures(port);
    http = fixtures.http();
  }

  List<String> jwksKids() {
    List<String> kids = new ArrayList<>();
    http.get("/.well-known/jwks.json", Map.of()).json().get("keys").forEach(k -> kids.add(k.get("kid").asString()));
    return kids;
  }

  String accessTokenKid() throws Exception {
    String token = fixtures.tokens(fixtures.issueKey(fixtures.newOrganisation())).get("access_token").asString();
    return SignedJWT.parse(token).getHeader().getKeyID();
  }

  @Nested
  class ListKeys {

    @Test
    void showsEveryKeyWithItsStatusAndTimesAndNoPrivateMaterial() throws Exception {
      String signing = accessTokenKid();

      TestHttp.Response response = http.get("/admin/v1/signing-keys", AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(200);
      JsonNode keys = response.json().get("data");
      JsonNode active = null;
      for (JsonNode key : keys) {
        assertThat(key.propertyNames()).containsExactly("kid", "algorithm", "status", "createdAt", "activatesAt",
            "deactivatesAt", "retiresAt", "retiredAt");
        if (key.get("status").asString().equals("ACTIVE")) {
          assertThat(active).as("one ACTIVE key").isNull();
          active = key;
        }
      }
      assertThat(active).isNotNull();
      assertThat(active.get("kid").asString()).isEqualTo(signing);
      assertThat(active.get("algorithm").asString()).isEqualTo("ES256");
      assertThat(Instant.parse(active.get("createdAt").asString())).isBefore(Instant.now());
      assertThat(Instant.parse(active.get("activatesAt").asString())).isBeforeOrEqualTo(Instant.now());
      // neither the private scalar nor the sealed form ever leaves the store
      String sealed = database.getCollection("signing_keys").find(new Document("_id", signing)).first()
          .getString("privateKey");
      assertThat(response.body()).doesNotContain("\"d\"").doesNotContain("lipa-sealed")
          .doesNotContain(sealed.substring(sealed.lastIndexOf(':') + 1, sealed.lastIndexOf(':') + 20));
    }

    @Test
    void wantsTheOperatorToken() {
      TestHttp.Response response = http.get("/admin/v1/signing-keys", Map.of());

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo(REFUSED);
    }
  }

  @Nested
  class Rotate {

    @Test
    void publishesANewKeyAtOnceThatSignsOnlyAfterTheLeadTimeAndRefusesASecondRotationMeanwhile() throws Exception {
      String before = accessTokenKid();

      TestHttp.Response rotated = http.send("POST", "/admin/v1/signing-keys/rotate", null, AuthFixtures.operator());

      assertThat(rotated.status()).as(rotated.body()).isEqualTo(201);
      JsonNode next = rotated.json().get("data");
      String nextKid = next.get("kid").asString();
      assertThat(next.get("status").asString()).isEqualTo("NEXT");
      Duration lead = Duration.between(Instant.parse(next.get("createdAt").asString()),
          Instant.parse(next.get("activatesAt").asString()));
      assertThat(lead).isEqualTo(Duration.ofMinutes(10));
      assertThat(jwksKids()).contains(before, nextKid);
      // tokens keep the old key until the lead time has passed
      assertThat(accessTokenKid()).isEqualTo(before);

      TestHttp.Response again = http.send("POST", "/admin/v1/signing-keys/rotate", null, AuthFixtures.operator());
      assertThat(again.status()).isEqualTo(409);
      assertThat(again.json().get("message").asString())
          .isEqualTo("a signing-key rotation is already under way: key " + nextKid + " signs from "
              + next.get("activatesAt").asString());

      JsonNode listed = http.get("/admin/v1/signing-keys", AuthFixtures.operator()).json().get("data");
      assertThat(listed.get(0).get("kid").asString()).isEqualTo(nextKid);
      assertThat(listed.get(1).get("kid").asString()).isEqualTo(before);
      assertThat(listed.get(1).get("status").asString()).isEqualTo("ACTIVE");
      assertThat(listed.get(1).get("deactivatesAt").asString()).isEqualTo(next.get("activatesAt").asString());
      assertThat(Instant.parse(listed.get(1).get("retiresAt").asString()))
          .isEqualTo(Instant.parse(next.get("activatesAt").asString()).plus(Duration.ofSeconds(1800 + 60)));
    }

    @Test
    void wantsTheOperatorToken() {
      long keys = database.getCollection("signing_keys").countDocuments();

      TestHttp.Response response = http.send("POST", "/admin/v1/signing-keys/rotate", null,
          Map.of("X-Operator-Token", AuthFixtures.OPERATOR_TOKEN + "x"));

      assertThat(response.status()).isEqualTo(401);
      assertThat(database.getCollection("signing_keys").countDocuments()).isEqualTo(keys);
    }
  }
}
