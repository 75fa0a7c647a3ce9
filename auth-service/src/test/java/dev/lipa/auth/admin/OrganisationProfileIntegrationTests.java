package dev.lipa.auth.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Named.named;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.auth.OrganisationTopic;
import dev.lipa.auth.organisations.Organisations;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.bson.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@AuthServiceIntegrationTest
class OrganisationProfileIntegrationTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @LocalServerPort
  int port;

  @Autowired
  MongoDatabase database;

  @Autowired
  Organisations organisations;

  AuthFixtures fixtures;
  TestHttp http;

  @BeforeAll
  static void recordTheTopic() {
    OrganisationTopic.start();
  }

  @BeforeEach
  void setUp() {
    fixtures = new AuthFixtures(port);
    http = fixtures.http();
  }

  TestHttp.Response patch(String organisationId, String body) {
    return http.send("PATCH", "/admin/v1/organisations/" + organisationId, body,
        Map.of("X-Operator-Token", AuthFixtures.OPERATOR_TOKEN, "Content-Type", "application/json"));
  }

  JsonNode patched(String organisationId, String body) {
    TestHttp.Response response = patch(organisationId, body);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json().get("data");
  }

  static String account() {
    return String.valueOf(ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_999_999_999L));
  }

  @Nested
  class ChangeOrganisation {

    @Test
    void setsEveryProfileFieldAndMovesToTheNextRevision() {
      String org = fixtures.newOrganisation();
      String account = account();

      TestHttp.Response response = patch(org, """
          {"name":"Duka Kuu","phoneNumber":"+255712345678","email":"pay@duka.example",
           "collectionCallbackUrl":"https://duka.example/bank","logoUrl":"https://cdn.duka.example/logo.png",
           "displayName":"Duka Kuu Ltd","bankAccountNumbers":["%s"]}""".formatted(account));

      assertThat(response.status()).as(response.body()).isEqualTo(200);
      assertThat(response.json().get("message").asString()).isEqualTo("Organisation updated");
      JsonNode data = response.json().get("data");
      assertThat(data.get("name").asString()).isEqualTo("Duka Kuu");
      assertThat(data.get("phoneNumber").asString()).isEqualTo("255712345678");
      assertThat(data.get("email").asString()).isEqualTo("pay@duka.example");
      assertThat(data.get("collectionCallbackUrl").asString()).isEqualTo("https://duka.example/bank");
      assertThat(data.get("logoUrl").asString()).isEqualTo("https://cdn.duka.example/logo.png");
      assertThat(data.get("displayName").asString()).isEqualTo("Duka Kuu Ltd");
      assertThat(data.get("bankAccountNumbers").get(0).asString()).isEqualTo(account);
      assertThat(data.get("revision").asLong()).isEqualTo(2);
      assertThat(data.get("updatedAt").asString()).isGreaterThanOrEqualTo(data.get("createdAt").asString());
      JsonNode shown = http.get("/admin/v1/organisations/" + org, AuthFixtures.operator()).json().get("data");
      assertThat(shown).isEqualTo(data);
    }

    @Test
    void leavesAbsentFieldsAsTheyAreAndClearsExplicitNulls() {
      String org = fixtures.newOrganisation();
      patched(org, """
          {"collectionCallbackUrl":"http://duka.example/bank","displayName":"Duka","email":"a@duka.example"}""");

      JsonNode data = patched(org, "{\"collectionCallbackUrl\":null,\"email\":null}");

      assertThat(data.get("collectionCallbackUrl").isNull()).isTrue();
      assertThat(data.get("email").isNull()).isTrue();
      assertThat(data.get("displayName").asString()).isEqualTo("Duka");
      assertThat(data.get("revision").asLong()).isEqualTo(3);
    }

    @Test
    void aChangeThatChangesNothingIsNoNewRevision() {
      String org = fixtures.newOrganisation();
      patched(org, "{\"displayName\":\"Duka\"}");

      assertThat(patched(org, "{\"displayName\":\"Duka\"}").get("revision").asLong()).isEqualTo(2);
      assertThat(patched(org, "{}").get("revision").asLong()).isEqualTo(2);
    }

    static Stream<Arguments> invalidChanges() {
      return Stream.of(
          Arguments.of(named("an ftp collectionCallbackUrl", "{\"collectionCallbackUrl\":\"ftp://duka.example\"}"),
              "collectionCallbackUrl"),
          Arguments.of(named("a relative collectionCallbackUrl", "{\"collectionCallbackUrl\":\"/bank\"}"),
              "collectionCallbackUrl"),
          Arguments.of(named("an http logoUrl", "{\"logoUrl\":\"http://cdn.example/logo.png\"}"), "logoUrl"),
          Arguments.of(named("a 5 digit account", "{\"bankAccountNumbers\":[\"12345\"]}"), "bankAccountNumbers"),
          Arguments.of(named("a 21 digit account", "{\"bankAccountNumbers\":[\"123456789012345678901\"]}"),
              "bankAccountNumbers"),
          Arguments.of(named("an account with letters", "{\"bankAccountNumbers\":[\"12345A789\"]}"),
              "bankAccountNumbers"),
          Arguments.of(named("an account as a number", "{\"bankAccountNumbers\":[123456789]}"),
              "bankAccountNumbers"),
          Arguments.of(named("an account listed twice", "{\"bankAccountNumbers\":[\"1234567\",\"1234567\"]}"),
              "bankAccountNumbers"),
          Arguments.of(named("accounts that are not a list", "{\"bankAccountNumbers\":\"1234567\"}"),
              "bankAccountNumbers"),
          Arguments.of(named("a null name", "{\"name\":null}"), "name"),
          Arguments.of(named("a blank name", "{\"name\":\"  \"}"), "name"),
          Arguments.of(named("a 101 character displayName", "{\"displayName\":\"" + "d".repeat(101) + "\"}"),
              "displayName"),
          Arguments.of(named("an invalid email", "{\"email\":\"not-an-email\"}"), "email"),
          Arguments.of(named("a local phoneNumber", "{\"phoneNumber\":\"0712345678\"}"), "phoneNumber"),
          Arguments.of(named("a new parent", "{\"parentOrganisationId\":\"" + UUID.randomUUID() + "\"}"),
              "parentOrganisationId"),
          Arguments.of(named("an unknown field", "{\"colour\":\"blue\"}"), "colour"));
    }

    @ParameterizedTest(name = "refuses {0} naming the field and changing nothing")
    @MethodSource("invalidChanges")
    void refusesAnInvalidField(String body, String field) {
      String org = fixtures.newOrganisation();

      TestHttp.Response response = patch(org, body);

      assertThat(response.status()).as(response.body()).isEqualTo(400);
      assertThat(response.json().get("message").asString()).isEqualTo("Validation failed");
      assertThat(response.json().get("errors").propertyNames()).containsExactly(field);
      assertThat(database.getCollection(Organisations.COLLECTION).find(Filters.eq("_id", org)).first()
          .get("revision", Number.class).longValue()).isEqualTo(1);
    }

    @Test
    void namesEveryInvalidFieldAtOnce() {
      TestHttp.Response response = patch(fixtures.newOrganisation(),
          "{\"name\":null,\"logoUrl\":\"ftp://x\",\"bankAccountNumbers\":[\"1\"]}");

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames())
          .containsExactlyInAnyOrder("name", "logoUrl", "bankAccountNumbers");
    }

    @Test
    void answers404ForAnUnknownOrganisation() {
      TestHttp.Response response = patch(UUID.randomUUID().toString(), "{\"displayName\":\"x\"}");

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.json().get("message").asString()).isEqualTo("Organisation not found");
    }

    @Test
    void refusesTheOperatorTokenMissing() {
      TestHttp.Response response = http.send("PATCH", "/admin/v1/organisations/" + fixtures.newOrganisation(),
          "{\"displayName\":\"x\"}", Map.of("Content-Type", "application/json"));

      assertThat(response.status()).isEqualTo(401);
    }
  }

  @Nested
  class BankAccounts {

    @Test
    void refusesAnAccountOfAnotherOrganisationWith409AndChangesNothing() {
      String account = account();
      String holder = fixtures.newOrganisation();
      patched(holder, "{\"bankAccountNumbers\":[\"%s\"]}".formatted(account));
      String other = fixtures.newOrganisation();

      TestHttp.Response response = patch(other,
          "{\"displayName\":\"Other\",\"bankAccountNumbers\":[\"%s\"]}".formatted(account));

      assertThat(response.status()).isEqualTo(409);
      assertThat(response.json().get("message").asString())
          .isEqualTo("bank account number " + account + " already belongs to another organisation");
      JsonNode shown = http.get("/admin/v1/organisations/" + other, AuthFixtures.operator()).json().get("data");
      assertThat(shown.get("displayName").isNull()).isTrue();
      assertThat(shown.get("revision").asLong()).isEqualTo(1);
    }

    @Test
    void keepsNoClaimOfAFailedChange() {
      String taken = account();
      String free = account();
      patched(fixtures.newOrganisation(), "{\"bankAccountNumbers\":[\"%s\"]}".formatted(taken));
      String other = fixtures.newOrganisation();

      assertThat(patch(other, "{\"bankAccountNumbers\":[\"%s\",\"%s\"]}".formatted(free, taken)).status())
          .isEqualTo(409);

      patched(fixtures.newOrganisation(), "{\"bankAccountNumbers\":[\"%s\"]}".formatted(free));
    }

    @Test
    void letsAnotherOrganisationTakeAnAccountOnceItIsRemoved() {
      String account = account();
      String first = fixtures.newOrganisation();
      patched(first, "{\"bankAccountNumbers\":[\"%s\"]}".formatted(account));
      patched(first, "{\"bankAccountNumbers\":null}");

      JsonNode second = patched(fixtures.newOrganisation(), "{\"bankAccountNumbers\":[\"%s\"]}".formatted(account));

      assertThat(second.get("bankAccountNumbers").get(0).asString()).isEqualTo(account);
    }

    @Test
    void keepsItsOwnAccountsWhenAddingMore() {
      String org = fixtures.newOrganisation();
      String first = account();
      String second = account();
      patched(org, "{\"bankAccountNumbers\":[\"%s\"]}".formatted(first));

      JsonNode data = patched(org, "{\"bankAccountNumbers\":[\"%s\",\"%s\"]}".formatted(first, second));

      assertThat(data.get("bankAccountNumbers").values()).extracting(JsonNode::asString)
          .containsExactly(first, second);
    }

    @Test
    void takesOverAStaleClaimWhoseHolderDoesNotListTheAccount() {
      String account = account();
      String crashed = fixtures.newOrganisation();
      // what a crash between the claim and the profile write leaves behind
      database.getCollection("bank_accounts").insertOne(new Document("_id", account)
          .append("organisationId", crashed).append("claimedAt", new Date(System.currentTimeMillis() - 3_600_000)));

      JsonNode data = patched(fixtures.newOrganisation(), "{\"bankAccountNumbers\":[\"%s\"]}".formatted(account));

      assertThat(data.get("bankAccountNumbers").get(0).asString()).isEqualTo(account);
    }
  }

  @Nested
  class PublishedProfiles {

    @Test
    void publishesTheCreationAndEveryChangeInRevisionOrderWithTheWholeProfile() {
      String org = fixtures.newOrganisation();
      String account = account();
      patched(org, "{\"collectionCallbackUrl\":\"https://duka.example/bank\"}");
      patched(org, "{\"bankAccountNumbers\":[\"%s\"],\"logoUrl\":\"https://cdn.example/l.png\"}".formatted(account));

      await().atMost(Duration.ofSeconds(20)).until(() -> OrganisationTopic.records(org).size() >= 3);

      List<JsonNode> events = OrganisationTopic.records(org).stream().map(r -> JSON.readTree(r.value())).toList();
      assertThat(events).extracting(e -> e.get("data").get("revision").asLong()).containsExactly(1L, 2L, 3L);
      JsonNode last = events.get(2);
      assertThat(last.propertyNames()).containsExactly("eventId", "type", "version", "occurredAt",
          "organisationId", "data");
      assertThat(last.get("type").asString()).isEqualTo("organisation.upserted");
      assertThat(last.get("version").asInt()).isEqualTo(1);
      assertThat(last.get("organisationId").asString()).isEqualTo(org);
      JsonNode data = last.get("data");
      assertThat(data.propertyNames()).containsExactly("organisationId", "id", "name", "phoneNumber", "email",
          "uniqueReference", "environment", "collectionCallbackUrl", "parentOrganisationId", "parent",
          "bankAccountNumbers", "logoUrl", "displayName", "createdAt", "updatedAt", "revision");
      assertThat(data.get("organisationId").asString()).isEqualTo(org);
      assertThat(data.get("collectionCallbackUrl").asString()).isEqualTo("https://duka.example/bank");
      assertThat(data.get("bankAccountNumbers").get(0).asString()).isEqualTo(account);
      assertThat(data.get("logoUrl").asString()).isEqualTo("https://cdn.example/l.png");
      assertThat(data.get("parent").asBoolean()).isTrue();
      assertThat(data.get("parentOrganisationId").isNull()).isTrue();
      assertThat(data.get("createdAt").asString()).endsWith("Z");
      assertThat(OrganisationTopic.records(org)).extracting(r -> r.topic()).containsOnly(Topics.ORGANISATIONS);
      // the acknowledged events leave the document
      await().atMost(Duration.ofSeconds(10)).until(() -> !database.getCollection(Organisations.COLLECTION)
          .find(Filters.eq("_id", org)).first().containsKey("outbox"));
    }

    @Test
    void publishesASubAccountWithItsParent() {
      String parent = fixtures.newOrganisation();
      String child = fixtures.createOrganisation(Map.of("name", "Branch", "parentOrganisationId", parent))
          .get("organisationId").asString();

      await().atMost(Duration.ofSeconds(20)).until(() -> !OrganisationTopic.records(child).isEmpty());

      JsonNode data = JSON.readTree(OrganisationTopic.records(child).get(0).value()).get("data");
      assertThat(data.get("parentOrganisationId").asString()).isEqualTo(parent);
      assertThat(data.get("parent").asBoolean()).isFalse();
    }

    @Test
    void publishesOrganisationsStoredBeforeProfilesWerePublished() {
      String legacy = UUID.randomUUID().toString();
      Date created = new Date();
      database.getCollection(Organisations.COLLECTION).insertOne(new Document("_id", legacy)
          .append("id", ThreadLocalRandom.current().nextLong(1L << 40, 1L << 50)).append("name", "Legacy")
          .append("uniqueReference", "LPLEGACY" + legacy.substring(0, 4).toUpperCase())
          .append("parentOrganisationId", null).append("environment", "sandbox")
          .append("createdAt", created).append("updatedAt", created));

      assertThat(organisations.publishNeverPublished()).isGreaterThanOrEqualTo(1);

      await().atMost(Duration.ofSeconds(20)).until(() -> !OrganisationTopic.records(legacy).isEmpty());
      assertThat(OrganisationTopic.records(legacy)).hasSize(1);
      assertThat(JSON.readTree(OrganisationTopic.records(legacy).get(0).value()).get("data").get("revision").asLong())
          .isEqualTo(1);
      assertThat(organisations.publishNeverPublished()).isZero();
    }

    @Test
    void keepsTheTopicCompactedSoNewConsumersSeeEveryOrganisation() throws Exception {
      fixtures.newOrganisation();
      try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
          SharedInfra.kafkaBootstrapServers()))) {
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, Topics.ORGANISATIONS);
        String policy = admin.describeConfigs(List.of(topic)).all().get().get(topic).get("cleanup.policy").value();

        assertThat(policy).isEqualTo("compact");
      }
    }
  }
}
