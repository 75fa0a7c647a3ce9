package dev.lipa.auth.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.auth.AuthFixtures;
import dev.lipa.auth.AuthFixtures.Credentials;
import dev.lipa.auth.AuthServiceIntegrationTest;
import dev.lipa.common.audit.OperatorAuditStore;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The audit log of operator calls in auth-service: one record per call, with who, what, when and from where, refused
 * calls included, never a secret; and its query, {@code GET /admin/v1/audit}.
 */
@AuthServiceIntegrationTest
class OperatorAuditIntegrationTests {

  @LocalServerPort
  int port;

  @Autowired
  MongoDatabase database;

  AuthFixtures fixtures;
  TestHttp http;
  MongoCollection<Document> audit;

  @BeforeEach
  void setUp() {
    fixtures = new AuthFixtures(port);
    http = fixtures.http();
    audit = database.getCollection(OperatorAuditStore.COLLECTION);
  }

  @Nested
  class EveryOperatorCall {

    @Test
    void creatingAnOrganisationLeavesOneCompleteRecord() {
      String call = UUID.randomUUID().toString();

      TestHttp.Response response = http.postJson("/admin/v1/organisations", "{\"name\":\"Audited\"}",
          operator(call));

      assertThat(response.status()).isEqualTo(201);
      Document record = onlyRecordOf(call);
      assertThat(record.getString("operator")).isEqualTo("operator");
      assertThat(record.getString("method")).isEqualTo("POST");
      assertThat(record.getString("path")).isEqualTo("/admin/v1/organisations");
      assertThat(record.getString("query")).isNull();
      assertThat(record.get("ids", Document.class)).isEmpty();
      assertThat(record.getInteger("status")).isEqualTo(201);
      assertThat(record.getString("address")).isEqualTo("127.0.0.1");
      assertThat(record.getString("peerAddress")).isEqualTo("127.0.0.1");
      assertThat(record.getString("service")).isEqualTo("auth-service");
      assertThat(Duration.between(record.getDate("at").toInstant(), record.getDate("completedAt").toInstant()))
          .isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void issuingRevokingAndRevokingTokensEachLeaveOneRecordWithTheIdsOfTheirPath() {
      String organisation = fixtures.newOrganisation();
      String issue = UUID.randomUUID().toString();
      String revoke = UUID.randomUUID().toString();
      String revokeTokens = UUID.randomUUID().toString();

      TestHttp.Response issued = http.send("POST", "/admin/v1/organisations/" + organisation + "/api-keys", null,
          operator(issue));
      String apiKey = issued.json().get("data").get("apiKey").asString();
      http.send("DELETE", "/admin/v1/organisations/" + organisation + "/api-keys/" + apiKey, null, operator(revoke));
      http.send("POST", "/admin/v1/organisations/" + organisation + "/revoke-tokens", null, operator(revokeTokens));

      Document issuing = onlyRecordOf(issue);
      assertThat(issuing.getString("path")).isEqualTo("/admin/v1/organisations/" + organisation + "/api-keys");
      assertThat(issuing.get("ids", Document.class)).containsExactlyEntriesOf(Map.of("organisationId", organisation));
      assertThat(issuing.getInteger("status")).isEqualTo(201);
      Document revoking = onlyRecordOf(revoke);
      assertThat(revoking.getString("method")).isEqualTo("DELETE");
      assertThat(revoking.get("ids", Document.class)).containsExactlyInAnyOrderEntriesOf(
          Map.of("organisationId", organisation, "apiKey", apiKey));
      assertThat(revoking.getInteger("status")).isEqualTo(200);
      Document revokingTokens = onlyRecordOf(revokeTokens);
      assertThat(revokingTokens.getString("path"))
          .isEqualTo("/admin/v1/organisations/" + organisation + "/revoke-tokens");
      assertThat(revokingTokens.get("ids", Document.class))
          .containsExactlyEntriesOf(Map.of("organisationId", organisation));
      assertThat(revokingTokens.getInteger("status")).isEqualTo(200);
    }

    @Test
    void namesTheOperatorWhoseTokenWasPresented() {
      String call = UUID.randomUUID().toString();

      http.get("/admin/v1/organisations/" + UUID.randomUUID(), Map.of("X-Operator-Token",
          AuthFixtures.NAMED_OPERATOR_TOKEN, "X-Correlation-Id", call));

      Document record = onlyRecordOf(call);
      assertThat(record.getString("operator")).isEqualTo(AuthFixtures.NAMED_OPERATOR);
      assertThat(record.getInteger("status")).isEqualTo(404);
    }

    @Test
    void recordsARefusedCallAsUnauthenticatedWithItsAddress() {
      String missing = UUID.randomUUID().toString();
      String wrong = UUID.randomUUID().toString();

      http.postJson("/admin/v1/organisations", "{\"name\":\"x\"}", Map.of("X-Correlation-Id", missing));
      http.postJson("/admin/v1/organisations", "{\"name\":\"x\"}", Map.of("X-Correlation-Id", wrong,
          "X-Operator-Token", AuthFixtures.OPERATOR_TOKEN + "x"));

      for (String call : List.of(missing, wrong)) {
        Document record = onlyRecordOf(call);
        assertThat(record.getString("operator")).isEqualTo("unauthenticated");
        assertThat(record.getInteger("status")).isEqualTo(401);
        assertThat(record.getString("address")).isEqualTo("127.0.0.1");
        assertThat(record.toJson()).doesNotContain(AuthFixtures.OPERATOR_TOKEN);
      }
    }

    @Test
    void namesTheClientTheTrustedGatewaySaysItForwarded() {
      String call = UUID.randomUUID().toString();
      Map<String, String> headers = new HashMap<>(operator(call));
      headers.put("X-Forwarded-For", "203.0.113.50");

      http.get("/admin/v1/audit?size=1", headers);

      Document record = onlyRecordOf(call);
      assertThat(record.getString("address")).isEqualTo("203.0.113.50");
      assertThat(record.getString("peerAddress")).isEqualTo("127.0.0.1");
      assertThat(record.getString("query")).isEqualTo("size=1");
    }

    @Test
    void theSecretOfAnIssuedKeyAndTheOperatorTokensAppearInNoAuditRecord() {
      Credentials issued = fixtures.issueKey(fixtures.newOrganisation());
      http.get("/admin/v1/organisations/" + issued.organisationId(), Map.of("X-Operator-Token",
          AuthFixtures.NAMED_OPERATOR_TOKEN));

      List<Document> records = audit.find().into(new ArrayList<>());

      assertThat(records).isNotEmpty().noneSatisfy(r -> assertThat(r.toJson())
          .containsAnyOf(issued.apiSecret(), AuthFixtures.OPERATOR_TOKEN, AuthFixtures.NAMED_OPERATOR_TOKEN));
    }
  }

  @Nested
  class QueryTheAuditLog {

    @Test
    void needsTheOperatorToken() {
      TestHttp.Response response = http.get("/admin/v1/audit", Map.of());

      assertThat(response.status()).isEqualTo(401);
      assertThat(response.body()).doesNotContain("operator\":");
    }

    @Test
    void listsTheCallsNewestFirstWithTheirFields() {
      String first = UUID.randomUUID().toString();
      String second = UUID.randomUUID().toString();
      http.postJson("/admin/v1/organisations", "{\"name\":\"First\"}", operator(first));
      http.postJson("/admin/v1/organisations", "{\"name\":\"Second\"}", operator(second));
      onlyRecordOf(second);

      TestHttp.Response response = http.get("/admin/v1/audit?size=500", AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("message").asString()).isEqualTo("Audit records fetched");
      List<JsonNode> records = response.json().get("data").valueStream().toList();
      List<String> calls = records.stream().map(r -> r.get("correlationId").asString()).toList();
      assertThat(calls.indexOf(second)).isNotNegative().isLessThan(calls.indexOf(first));
      JsonNode record = records.get(calls.indexOf(second));
      assertThat(record.propertyNames()).containsExactly("id", "at", "operator", "method", "path", "query", "ids",
          "status", "completedAt", "durationMillis", "address", "peerAddress", "correlationId", "service");
      assertThat(record.get("at").asString()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}");
      assertThat(record.get("status").asInt()).isEqualTo(201);
      assertThat(record.get("operator").asString()).isEqualTo("operator");
    }

    @Test
    void keepsToThePeriodAskedFor() {
      String call = UUID.randomUUID().toString();
      http.postJson("/admin/v1/organisations", "{\"name\":\"Dated\"}", operator(call));
      LocalDateTime at = LocalDateTime.ofInstant(onlyRecordOf(call).getDate("at").toInstant(),
          ZoneId.of("Africa/Nairobi"));
      DateTimeFormatter format = DateTimeFormatter.ISO_LOCAL_DATE_TIME;

      String around = "/admin/v1/audit?size=500&from=" + at.minusSeconds(1).format(format) + "&to="
          + at.plusSeconds(1).format(format);
      String before = "/admin/v1/audit?size=500&to=" + at.minusSeconds(1).format(format);
      String yesterdayOnly = "/admin/v1/audit?from=" + at.toLocalDate().minusDays(1) + "&to="
          + at.toLocalDate().minusDays(1);

      assertThat(correlationIds(around)).contains(call);
      assertThat(correlationIds(before)).doesNotContain(call);
      assertThat(correlationIds(yesterdayOnly)).doesNotContain(call);
    }

    @Test
    void pagesThroughTheLog() {
      for (int i = 0; i < 3; i++) {
        http.postJson("/admin/v1/organisations", "{\"name\":\"Paged\"}", AuthFixtures.operator());
      }

      // each query is an operator call too, recorded on top: a fixed end keeps the pages still
      String until = Instant.now().toString();

      List<String> firstPage = ids("/admin/v1/audit?size=2&page=0&to=" + until);
      List<String> secondPage = ids("/admin/v1/audit?size=2&page=1&to=" + until);

      assertThat(firstPage).hasSize(2);
      assertThat(secondPage).hasSize(2).doesNotContainAnyElementsOf(firstPage);
    }

    @Test
    void refusesBadParametersNamingEach() {
      TestHttp.Response response = http.get("/admin/v1/audit?from=soon&size=0", AuthFixtures.operator());

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactlyInAnyOrder("from", "size");
    }

    private List<String> correlationIds(String path) {
      TestHttp.Response response = http.get(path, AuthFixtures.operator());
      assertThat(response.status()).as(response.body()).isEqualTo(200);
      return response.json().get("data").valueStream().map(r -> r.get("correlationId").asString()).toList();
    }

    private List<String> ids(String path) {
      return http.get(path, AuthFixtures.operator()).json().get("data").valueStream()
          .map(r -> r.get("id").asString()).toList();
    }
  }

  /**
   * The one record of the call, once completed: the record is completed after the handler ran, which may be just after
   * the client has read the answer.
   */
  private Document onlyRecordOf(String correlationId) {
    await().atMost(Duration.ofSeconds(10)).until(() -> audit.countDocuments(
        Filters.and(Filters.eq("correlationId", correlationId), Filters.exists("status"))) > 0);
    List<Document> records = audit.find(Filters.eq("correlationId", correlationId)).into(new ArrayList<>());
    assertThat(records).hasSize(1);
    return records.getFirst();
  }

  private static Map<String, String> operator(String correlationId) {
    return Map.of("X-Operator-Token", AuthFixtures.OPERATOR_TOKEN, "X-Correlation-Id", correlationId);
  }
}
