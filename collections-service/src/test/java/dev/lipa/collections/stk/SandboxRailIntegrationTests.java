package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Named.named;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.testsupport.TopicRecorder;
import dev.lipa.collections.stk.rail.StkOutcomeHandler;
import dev.lipa.collections.stk.rail.StkRailOutcome;
import dev.lipa.common.events.Topics;
import dev.lipa.common.outbox.Outbox;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.bson.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The whole flow inside the service: accepted push, sandbox outcome, domain event and callback request. */
class SandboxRailIntegrationTests extends CollectionsIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Duration OUTCOME_WAIT = Duration.ofSeconds(30);
  /** How long to keep watching after the first record, to see that no second one follows. */
  private static final Duration QUIET = Duration.ofMillis(600);

  @Autowired
  private StkOutcomeHandler outcomes;

  @BeforeAll
  static void recordTopics() {
    TopicRecorder.start();
  }

  private MongoCollection<Document> pushes() {
    return database.getCollection(StkPushStore.COLLECTION);
  }

  private Document awaitCompleted(String requestId) {
    return await().atMost(OUTCOME_WAIT).until(() -> pushes().find(Filters.eq("_id", requestId)).first(),
        d -> d != null && !"PENDING".equals(d.getString("status")) && !d.containsKey(Outbox.EVENTS));
  }

  private static ConsumerRecord<String, String> exactlyOne(String topic, String requestId, String type) {
    await().atMost(OUTCOME_WAIT).until(() -> !records(topic, requestId, type).isEmpty());
    await().pollDelay(QUIET).atMost(QUIET.plusSeconds(5)).until(() -> true);
    var records = records(topic, requestId, type);
    assertThat(records).as("%s records of %s on %s", type, requestId, topic).hasSize(1);
    return records.getFirst();
  }

  private static java.util.List<ConsumerRecord<String, String>> records(String topic, String requestId,
      String type) {
    return TopicRecorder.records(topic, requestId).stream()
        .filter(r -> type.equals(JSON.readTree(r.value()).get("type").stringValue())).toList();
  }

  @Nested
  class Outcomes {

    static Stream<Arguments> magicNumbers() {
      return Stream.of(
          Arguments.of(named("Daraja's test number pays", "254708374149"), "SUCCESS", 0),
          Arguments.of(named("any other number pays", "0712345678"), "SUCCESS", 0),
          Arguments.of(named("254700000001 lacks funds", "254700000001"), "FAILED", 1),
          Arguments.of(named("254700001032 cancels", "0700001032"), "FAILED", 1032),
          Arguments.of(named("254700001037 is unreachable", "+254700001037"), "FAILED", 1037),
          Arguments.of(named("254700002001 enters a wrong PIN", "254700002001"), "FAILED", 2001));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("magicNumbers")
    void completesThePushAndRequestsTheCallbackExactlyOnce(String phone, String status, int resultCode) {
      String org = newOrganisation();
      String requestId = create(org, body(phone));

      Document stored = awaitCompleted(requestId);

      assertThat(stored.getString("status")).isEqualTo(status);
      assertThat(stored.getInteger("resultCode")).isEqualTo(resultCode);
      assertThat(stored.getInteger("responseCode")).isZero();
      assertThat(stored.getString("merchantRequestId")).matches("\\d{1,5}-\\d{8}-\\d");
      assertThat(stored.getString("checkoutRequestId")).startsWith("ws_CO_");
      if (status.equals("SUCCESS")) {
        assertThat(stored.getString("receipt")).matches("[A-Z][A-Z0-9]{9}");
      } else {
        assertThat(stored).doesNotContainKey("receipt");
      }
      String phoneNumber = stored.getString("phoneNumber");

      ConsumerRecord<String, String> callback = exactlyOne(Topics.CALLBACKS, requestId, "callback.requested");
      JsonNode envelope = JSON.readTree(callback.value());
      assertThat(envelope.get("organisationId").stringValue()).isEqualTo(org);
      assertThat(envelope.get("version").intValue()).isEqualTo(1);
      JsonNode data = envelope.get("data");
      assertThat(data.get("callbackId").stringValue()).isEqualTo(stored.getString("callbackId"));
      assertThat(data.get("requestId").stringValue()).isEqualTo(requestId);
      assertThat(data.get("url").stringValue()).isEqualTo("https://merchant.example/callbacks/stk");
      assertThat(data.get("kind").stringValue()).isEqualTo("stk");
      assertThat(data.get("body")).isEqualTo(JSON.readTree("""
          {"requestId":"%s","status":"%s","amount":10,"phoneNumber":"%s"}"""
          .formatted(requestId, status, phoneNumber)));
      assertThat(data.get("body").get("amount").isNumber()).isTrue();

      String type = status.equals("SUCCESS") ? "stk.succeeded" : "stk.failed";
      JsonNode domainEvent = JSON.readTree(exactlyOne(Topics.COLLECTIONS, requestId, type).value());
      assertThat(domainEvent.get("data").get("resultCode").intValue()).isEqualTo(resultCode);
      assertThat(records(Topics.COLLECTIONS, requestId, "stk.accepted")).hasSize(1);
    }

    static Stream<Arguments> otherCountries() {
      String tz = """
          {"description":"Ada","phoneNumber":"%s","amount":1500,"currencyCode":"TZS","channel":"%s",
           "callbackUrl":"https://merchant.example/callbacks/stk"}""";
      String ug = """
          {"description":"Fees","phoneNumber":"%s","amount":20000,"currencyCode":"UGX","narration":"School fees",
           "customerName":"Jane Doe","callbackUrl":"https://merchant.example/callbacks/stk"}""";
      return Stream.of(
          Arguments.of(named("a Tigo number pays", tz.formatted("0712345678", "TZ-TIGO-C2B")), "TZS", "SUCCESS", 0),
          Arguments.of(named("255710001032 cancels on Tigo", tz.formatted("+255710001032", "TZ-TIGO-C2B")), "TZS",
              "FAILED", 1032),
          Arguments.of(named("255680000001 lacks funds on Airtel", tz.formatted("0680000001", "TZ-AIRTEL-C2B")),
              "TZS", "FAILED", 1),
          Arguments.of(named("256700001037 is unreachable", ug.formatted("256700001037")), "UGX", "FAILED", 1037),
          Arguments.of(named("a Ugandan MTN number pays", ug.formatted("0772123456")), "UGX", "SUCCESS", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("otherCountries")
    void completesTanzanianAndUgandanPushesWithTheirCurrency(String body, String currency, String status,
        int resultCode) {
      String requestId = create(newOrganisation(), body);

      Document stored = awaitCompleted(requestId);

      assertThat(stored.getString("currency")).isEqualTo(currency);
      assertThat(stored.getString("status")).isEqualTo(status);
      assertThat(stored.getInteger("resultCode")).isEqualTo(resultCode);
      JsonNode callback = JSON.readTree(exactlyOne(Topics.CALLBACKS, requestId, "callback.requested").value())
          .get("data").get("body");
      assertThat(callback.propertyNames()).containsExactly("requestId", "status", "amount", "phoneNumber");
      assertThat(callback.get("status").stringValue()).isEqualTo(status);
      JsonNode accepted = JSON.readTree(records(Topics.COLLECTIONS, requestId, "stk.accepted").getFirst().value());
      assertThat(accepted.get("data").get("currency").stringValue()).isEqualTo(currency);
    }

    @Test
    void showsTheOutcomeInTheList() {
      String org = newOrganisation();
      String requestId = create(org, body("254708374149"));
      awaitCompleted(requestId);

      JsonNode record = http().get(ALL, as(org)).json().get("data").get(0);

      assertThat(record.get("uuid").stringValue()).isEqualTo(requestId);
      assertThat(record.get("status").stringValue()).isEqualTo("SUCCESS");
      assertThat(record.get("responseCode").intValue()).isZero();
      assertThat(record.get("responseDescription").stringValue())
          .isEqualTo("Success. Request accepted for processing");
      assertThat(record.get("customerMessage").stringValue()).isEqualTo("Success. Request accepted for processing");
      assertThat(record.get("merchantRequestId").stringValue()).isNotBlank();
      assertThat(record.get("checkoutRequestId").stringValue()).startsWith("ws_CO_");
      assertThat(record.get("updatedAt").stringValue()).isGreaterThan(record.get("createdAt").stringValue());
    }
  }

  @Nested
  class LateAndDuplicateOutcomes {

    @Test
    void aDuplicateOrContraryOutcomeChangesAndEmitsNothing() {
      String org = newOrganisation();
      String requestId = create(org, body("254708374149"));
      Document completed = awaitCompleted(requestId);
      exactlyOne(Topics.CALLBACKS, requestId, "callback.requested");

      boolean applied = outcomes.apply(new StkRailOutcome(OrganisationId.of(org), RequestId.parse(requestId),
          "1-00000001-1", "ws_CO_010120260000000000", 0, "Success. Request accepted for processing", "x", 1032,
          "Request cancelled by user", null));

      assertThat(applied).isFalse();
      Document after = pushes().find(Filters.eq("_id", requestId)).first();
      assertThat(after).isEqualTo(completed);
      exactlyOne(Topics.CALLBACKS, requestId, "callback.requested");
      assertThat(records(Topics.COLLECTIONS, requestId, "stk.failed")).isEmpty();
    }

    @Test
    void anOutcomeForAnotherOrganisationsPushIsIgnored() {
      String requestId = create(newOrganisation(), body("254700000001"));

      boolean applied = outcomes.apply(new StkRailOutcome(OrganisationId.of(newOrganisation()),
          RequestId.parse(requestId), "1-1-1", "ws_CO_1", 0, "ok", "ok", 0, "ok", "ABCDEFGHIJ"));

      assertThat(applied).isFalse();
      assertThat(awaitCompleted(requestId).getString("status")).isEqualTo("FAILED");
    }
  }

  @Nested
  class OverduePushes {

    @Test
    void aPendingPushWhoseOutcomeWasLostIsDrivenToItsOutcome() {
      String org = newOrganisation();
      // what a crash leaves: the push stored PENDING long ago, its accepted event long published, the timer gone
      Instant longAgo = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MILLIS);
      StkPush push = StkPush.restore(new StkPush.Details(Math.abs(UUID.randomUUID().getMostSignificantBits() >> 11),
              RequestId.random(), OrganisationId.of(org), null, "254700001037", "Lost timer", "INV1",
              new BigDecimal("25"), StkCurrency.KSH, "https://merchant.example/lost", longAgo, null, null, null),
          StkStatus.PENDING, longAgo, null, null);
      pushes().insertOne(StkPushStore.toDocument(push));
      String requestId = push.requestId().toString();

      Document stored = awaitCompleted(requestId);

      assertThat(stored.getString("status")).isEqualTo("FAILED");
      assertThat(stored.getInteger("resultCode")).isEqualTo(1037);
      JsonNode body = JSON.readTree(exactlyOne(Topics.CALLBACKS, requestId, "callback.requested").value())
          .get("data").get("body");
      assertThat(body).isEqualTo(JSON.readTree("""
          {"requestId":"%s","status":"FAILED","amount":25,"phoneNumber":"254700001037"}""".formatted(requestId)));
    }
  }
}
