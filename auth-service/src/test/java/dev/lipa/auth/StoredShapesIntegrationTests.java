package dev.lipa.auth;

import static dev.lipa.common.testsupport.StoredShape.assertShape;
import static dev.lipa.common.testsupport.StoredShape.stored;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.auth.AuthFixtures.Credentials;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.testsupport.TestHttp;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Pins the shape (field names and BSON types, as the store holds them) of every document auth-service stores:
 * organisations and their counter, claimed bank accounts, API keys, refresh token families, revocations and signing
 * keys. Data written by one release is read by the next: a renamed field, a changed type or a renamed collection must
 * fail here. The outbox's own fields are pinned in common.
 */
@AuthServiceIntegrationTest
class StoredShapesIntegrationTests {

  private static final Map<String, String> PATCH_HEADERS = Map.of("X-Operator-Token", AuthFixtures.OPERATOR_TOKEN,
      "Content-Type", "application/json");

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

  private MongoCollection<Document> collection(String name) {
    return database.getCollection(name);
  }

  private String account() {
    return String.valueOf(System.nanoTime());
  }

  @Nested
  class Organisations {

    @Test
    void anOrganisationWithEveryProfileFieldSet() {
      String org = fixtures.newOrganisation();
      TestHttp.Response patched = http.send("PATCH", "/admin/v1/organisations/" + org, TestHttp.json(Map.of(
          "collectionCallbackUrl", "https://duka.example/bank", "bankAccountNumbers", List.of(account()),
          "logoUrl", "https://cdn.example/l.png", "displayName", "Duka Ltd", "requestsPerSecond", 50)),
          PATCH_HEADERS);
      assertThat(patched.status()).as(patched.body()).isEqualTo(200);

      assertShape(stored(collection("organisations"), Filters.eq("_id", org)), """
          _id: string
          bankAccountNumbers: array
          bankAccountNumbers[]: string
          collectionCallbackUrl: string
          createdAt: date_time
          displayName: string
          email: null
          environment: string
          id: int64
          logoUrl: string
          name: string
          parentOrganisationId: null
          phoneNumber: null
          requestsPerSecond: int32
          revision: int64
          uniqueReference: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }

    @Test
    void aSubAccountAsCreated() {
      String parent = fixtures.newOrganisation();
      String child = fixtures.createOrganisation(Map.of("name", "Branch", "parentOrganisationId", parent))
          .get("organisationId").asString();

      assertShape(stored(collection("organisations"), Filters.eq("_id", child)), """
          _id: string
          bankAccountNumbers: array
          bankAccountNumbers[]: (empty)
          collectionCallbackUrl: null
          createdAt: date_time
          displayName: null
          email: null
          environment: string
          id: int64
          logoUrl: null
          name: string
          parentOrganisationId: string
          phoneNumber: null
          requestsPerSecond: null
          revision: int64
          uniqueReference: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }

    @Test
    void theNumericIdCounterAndABankAccountsClaim() {
      String org = fixtures.newOrganisation();
      String account = account();
      http.send("PATCH", "/admin/v1/organisations/" + org,
          TestHttp.json(Map.of("bankAccountNumbers", List.of(account))), PATCH_HEADERS);

      assertShape(stored(collection("counters"), Filters.eq("_id", "organisations")), """
          _id: string
          seq: int64
          """);
      assertShape(stored(collection("bank_accounts"), Filters.eq("_id", account)), """
          _id: string
          claimedAt: date_time
          organisationId: string
          """);
    }
  }

  @Nested
  class KeysAndTokens {

    @Test
    void anApiKeyRevokedAndItsRevocation() {
      Credentials credentials = fixtures.issueKey(fixtures.newOrganisation());
      assertShape(stored(collection("api_keys"), Filters.eq("_id", credentials.apiKey())), """
          _id: string
          createdAt: date_time
          environment: string
          organisationId: string
          secretHash: binary
          status: string
          """);

      http.send("DELETE", "/admin/v1/organisations/" + credentials.organisationId() + "/api-keys/"
          + credentials.apiKey(), null, AuthFixtures.operator());

      assertShape(stored(collection("api_keys"), Filters.eq("_id", credentials.apiKey())), """
          _id: string
          createdAt: date_time
          environment: string
          organisationId: string
          revokedAt: date_time
          secretHash: binary
          status: string
          """);
      assertShape(stored(collection("token_revocations"), Filters.eq("_id", "key:" + credentials.apiKey())), """
          _id: string
          apiKey: string
          at: date_time
          feedUntil: date_time
          kind: string
          organisationId: string
          """);
    }

    @Test
    void anOrganisationsRevokedTokens() {
      String org = fixtures.newOrganisation();
      http.send("POST", "/admin/v1/organisations/" + org + "/revoke-tokens", null, AuthFixtures.operator());

      assertShape(stored(collection("token_revocations"), Filters.eq("_id", "organisation:" + org)), """
          _id: string
          at: date_time
          feedUntil: date_time
          kind: string
          organisationId: string
          """);
    }

    @Test
    void aRefreshTokenFamilyAfterARefresh() {
      Credentials credentials = fixtures.issueKey(fixtures.newOrganisation());
      fixtures.refresh(fixtures.tokens(credentials).get("refresh_token").asString());

      assertShape(stored(collection("token_families"), Filters.eq("organisationId", credentials.organisationId())),
          """
          _id: string
          apiKey: string
          createdAt: date_time
          currentJti: string
          environment: string
          expiresAt: date_time
          organisationId: string
          revoked: boolean
          updatedAt: date_time
          """);
    }

    @Test
    void theSigningKeyInUse() {
      fixtures.tokens(fixtures.issueKey(fixtures.newOrganisation()));

      assertShape(stored(collection("signing_keys"), Filters.exists("privateKey")), """
          _id: string
          activatesAt: date_time
          algorithm: string
          createdAt: date_time
          follows: string
          privateKey: string
          publicJwk: string
          """);
    }
  }
}
