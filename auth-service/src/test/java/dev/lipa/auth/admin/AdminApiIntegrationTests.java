package dev.lipa.auth.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthFixtures.Credentials;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.testsupport.TestHttp;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.bson.Document;
import org.bson.types.Binary;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@AuthServiceIntegrationTest
class AdminApiIntegrationTests {

  private static final String RECORD_TIME = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}";
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

  @Nested
  class OperatorAuthentication {

    @Test
    void refusesRequestsWithoutTheOperatorToken() {
      TestHttp.Response response = http.postJson("/admin/v1/organisations", "{\"name\":\"x\"}", Map.of());

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo(REFUSED);
    }

    @Test
    void refusesAWrongOperatorToken() {
      TestHttp.Response response = http.get("/admin/v1/organisations/" + UUID.randomUUID(),
          Map.of("X-Operator-Token", AuthFixtures.OPERATOR_TOKEN + "x"));

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo(REFUSED);
    }

    @Test
    void refusesAMerchantsValidAccessToken() {
      Credentials credentials = fixtures.issueKey(fixtures.newOrganisation());
      String accessToken = fixtures.tokens(credentials).get("access_token").asString();

      TestHttp.Response response = http.send("POST",
          "/admin/v1/organisations/" + credentials.organisationId() + "/api-keys", null, TestHttp.bearer(accessToken));

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).isEqualTo(REFUSED);
    }

    @Test
    void unknownAdminPathsDoNotAnswerWithoutTheToken() {
      assertThat(http.get("/admin/v2/anything", Map.of()).status()).isEqualTo(401);
    }
  }

  @Nested
  class CreateOrganisation {

    @Test
    void createsAnOrganisationAndShowsIt() {
      TestHttp.Response response = http.postJson("/admin/v1/organisations", TestHttp.json(Map.of(
          "name", "Duka La Mama", "email", "ops@duka.co.ke", "phoneNumber", "+254712345678")),
          AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(201);
      JsonNode body = response.json();
      assertThat(body.get("status").asInt()).isEqualTo(201);
      assertThat(body.get("message").asString()).isEqualTo("Organisation created");
      JsonNode data = body.get("data");
      assertThat(data.propertyNames()).containsExactly("id", "organisationId", "uuid", "name", "phoneNumber",
          "email", "uniqueReference", "parentOrganisationId", "parent", "environment", "collectionCallbackUrl",
          "bankAccountNumbers", "logoUrl", "displayName", "requestsPerSecond", "revision", "createdAt", "updatedAt");
      assertThat(data.get("parent").asBoolean()).isTrue();
      assertThat(data.get("revision").asLong()).isEqualTo(1);
      assertThat(data.get("bankAccountNumbers").isArray()).isTrue();
      assertThat(data.get("bankAccountNumbers").size()).isZero();
      assertThat(data.get("id").isIntegralNumber()).isTrue();
      assertThat(data.get("id").asLong()).isPositive().isLessThan(1L << 53);
      assertThat(UUID.fromString(data.get("organisationId").asString())).isNotNull();
      assertThat(data.get("uuid").asString()).isEqualTo(data.get("organisationId").asString());
      assertThat(data.get("name").asString()).isEqualTo("Duka La Mama");
      assertThat(data.get("phoneNumber").asString()).isEqualTo("254712345678");
      assertThat(data.get("email").asString()).isEqualTo("ops@duka.co.ke");
      assertThat(data.get("uniqueReference").asString()).matches("LP[0-9A-Z]{10}");
      assertThat(data.get("parentOrganisationId").isNull()).isTrue();
      assertThat(data.get("environment").asString()).isEqualTo("sandbox");
      assertThat(data.get("createdAt").asString()).matches(RECORD_TIME);
      assertThat(data.get("updatedAt").asString()).isEqualTo(data.get("createdAt").asString());
    }

    @Test
    void givesEveryOrganisationItsOwnIdsAndReference() {
      JsonNode first = fixtures.createOrganisation(Map.of("name", "One"));
      JsonNode second = fixtures.createOrganisation(Map.of("name", "Two"));

      assertThat(second.get("id").asLong()).isGreaterThan(first.get("id").asLong());
      assertThat(second.get("organisationId").asString()).isNotEqualTo(first.get("organisationId").asString());
      assertThat(second.get("uniqueReference").asString()).isNotEqualTo(first.get("uniqueReference").asString());
    }

    @Test
    void createsASubAccountOfAnExistingOrganisation() {
      String parent = fixtures.newOrganisation();

      JsonNode child = fixtures.createOrganisation(Map.of("name", "Branch", "parentOrganisationId", parent));

      assertThat(child.get("parentOrganisationId").asString()).isEqualTo(parent);
    }

    @Test
    void refusesAParentThatDoesNotExist() {
      TestHttp.Response response = http.postJson("/admin/v1/organisations", TestHttp.json(Map.of(
          "name", "Branch", "parentOrganisationId", UUID.randomUUID().toString())), AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.body()).isEqualTo("{\"status\":400,\"message\":\"Validation failed\",\"data\":null,"
          + "\"errors\":{\"parentOrganisationId\":[\"no organisation has this id\"]}}");
    }

    @Test
    void refusesASubAccountAsParent() {
      String parent = fixtures.newOrganisation();
      String child = fixtures.createOrganisation(Map.of("name", "Branch", "parentOrganisationId", parent))
          .get("organisationId").asString();

      TestHttp.Response response = http.postJson("/admin/v1/organisations", TestHttp.json(Map.of(
          "name", "Grandchild", "parentOrganisationId", child)), AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").get("parentOrganisationId").get(0).asString())
          .contains("sub-account");
    }

    @Test
    void namesEveryInvalidField() {
      Map<String, Object> body = new HashMap<>();
      body.put("name", "n".repeat(101));
      body.put("email", "not-an-email");
      body.put("phoneNumber", "0712345678");
      TestHttp.Response response = http.postJson("/admin/v1/organisations", TestHttp.json(body),
          AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(400);
      JsonNode json = response.json();
      assertThat(json.get("status").asInt()).isEqualTo(400);
      assertThat(json.get("data").isNull()).isTrue();
      assertThat(json.get("errors").propertyNames()).containsExactlyInAnyOrder("name", "email", "phoneNumber");
    }

    @Test
    void refusesBodiesThatAreNotJson() {
      TestHttp.Response response = http.postJson("/admin/v1/organisations", "name=x",
          Map.of("Content-Type", "text/plain", "X-Operator-Token", AuthFixtures.OPERATOR_TOKEN));

      assertThat(response.status()).isEqualTo(415);
      assertThat(response.json().get("status").asInt()).isEqualTo(415);
    }
  }

  @Nested
  class GetOrganisation {

    @Test
    void showsTheOrganisationAsCreated() {
      JsonNode created = fixtures.createOrganisation(Map.of("name", "Shown", "email", "a@b.co"));

      TestHttp.Response response = http.get("/admin/v1/organisations/" + created.get("organisationId").asString(),
          AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("status").asInt()).isEqualTo(200);
      assertThat(response.json().get("data")).isEqualTo(created);
    }

    @Test
    void answers404ForAnUnknownOrganisation() {
      TestHttp.Response response = http.get("/admin/v1/organisations/" + UUID.randomUUID(), AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.body()).isEqualTo("{\"status\":404,\"message\":\"Organisation not found\",\"data\":null}");
    }
  }

  @Nested
  class IssueApiKey {

    @Test
    void issuesAKeyAndShowsItsSecretOnce() throws Exception {
      String organisationId = fixtures.newOrganisation();

      TestHttp.Response response = http.send("POST", "/admin/v1/organisations/" + organisationId + "/api-keys", null,
          AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(201);
      assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
      JsonNode data = response.json().get("data");
      assertThat(data.propertyNames())
          .containsExactly("apiKey", "apiSecret", "organisationId", "environment", "createdAt");
      String apiKey = data.get("apiKey").asString();
      String apiSecret = data.get("apiSecret").asString();
      assertThat(apiKey).matches("lk_sbx_[a-z2-7]{32}");
      assertThat(apiSecret).matches("[A-Za-z0-9_-]{43}");
      assertThat(data.get("organisationId").asString()).isEqualTo(organisationId);
      assertThat(data.get("environment").asString()).isEqualTo("sandbox");
      assertThat(data.get("createdAt").asString()).matches(RECORD_TIME);

      Document stored = database.getCollection("api_keys").find(new Document("_id", apiKey)).first();
      assertThat(stored.toJson()).doesNotContain(apiSecret);
      assertThat(stored.get("secretHash", Binary.class).getData()).isEqualTo(
          MessageDigest.getInstance("SHA-256").digest(apiSecret.getBytes(StandardCharsets.UTF_8)));
      assertThat(fixtures.getToken(apiKey, apiSecret).status()).isEqualTo(200);
    }

    @Test
    void anOrganisationMayHoldSeveralKeys() {
      String organisationId = fixtures.newOrganisation();
      Credentials first = fixtures.issueKey(organisationId);
      Credentials second = fixtures.issueKey(organisationId);

      assertThat(first.apiKey()).isNotEqualTo(second.apiKey());
      assertThat(fixtures.getToken(first.apiKey(), first.apiSecret()).status()).isEqualTo(200);
      assertThat(fixtures.getToken(second.apiKey(), second.apiSecret()).status()).isEqualTo(200);
    }

    @Test
    void answers404ForAnUnknownOrganisation() {
      TestHttp.Response response = http.send("POST", "/admin/v1/organisations/" + UUID.randomUUID() + "/api-keys",
          null, AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(404);
    }
  }

  @Nested
  class RevokeApiKey {

    @Test
    void revokedKeyGetsNoMoreTokens() {
      Credentials credentials = fixtures.issueKey(fixtures.newOrganisation());

      TestHttp.Response response = revoke(credentials.organisationId(), credentials.apiKey());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("{\"status\":200,\"message\":\"API key revoked\",\"data\":{\"apiKey\":\""
          + credentials.apiKey() + "\",\"status\":\"REVOKED\",\"environment\":\"sandbox\"}}");
      assertThat(fixtures.getToken(credentials.apiKey(), credentials.apiSecret()).status()).isEqualTo(401);
    }

    @Test
    void revokingTwiceChangesNothing() {
      Credentials credentials = fixtures.issueKey(fixtures.newOrganisation());
      revoke(credentials.organisationId(), credentials.apiKey());

      assertThat(revoke(credentials.organisationId(), credentials.apiKey()).status()).isEqualTo(200);
    }

    @Test
    void onlyTheKeysOwnOrganisationCanBeNamed() {
      Credentials credentials = fixtures.issueKey(fixtures.newOrganisation());
      String otherOrganisation = fixtures.newOrganisation();

      assertThat(List.of(revoke(otherOrganisation, credentials.apiKey()),
          revoke(credentials.organisationId(), "lk_sbx_unknown"))).allSatisfy(response -> {
            assertThat(response.status()).isEqualTo(404);
            assertThat(response.json().get("message").asString()).isEqualTo("API key not found for this organisation");
          });
      assertThat(fixtures.getToken(credentials.apiKey(), credentials.apiSecret()).status()).isEqualTo(200);
    }

    private TestHttp.Response revoke(String organisationId, String apiKey) {
      return http.send("DELETE", "/admin/v1/organisations/" + organisationId + "/api-keys/" + apiKey, null,
          AuthFixtures.operator());
    }
  }
}
