package dev.lipa.collections.stk.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.Filters;
import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.collections.stk.StkPushStore;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.PublishedRecords;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TopicRecorder;
import java.time.Duration;
import java.util.Map;
import org.bson.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** {@code POST /internal/v1/stk-pushes}: STK pushes started by checkout-service with the shared internal token. */
class InternalStkPushIntegrationTests extends CollectionsIntegrationTest {

  static final String TOKEN = "internal-test-token";
  private static final String PATH = "/internal/v1/stk-pushes";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @BeforeAll
  static void recordTopics() {
    TopicRecorder.start();
  }

  private static String internalBody(String org, String phone, String reference) {
    return """
        {"organisationId":"%s","phoneNumber":"%s","amount":1500,"currencyCode":"KSH","description":"Order 42",
         "accountReference":"AbC123xyz789","referenceId":"%s"}""".formatted(org, phone, reference);
  }

  private static Map<String, String> token(String value) {
    return Map.of("X-Internal-Token", value);
  }

  @Nested
  class Create {

    @Test
    void startsAPushForTheNamedOrganisationWithoutAMerchantCallback() {
      String org = newOrganisation();
      String reference = "chk_" + java.util.UUID.randomUUID() + "_1";
      TestHttp.Response response = http().postJson(PATH, internalBody(org, "0712345678", reference), token(TOKEN));
      assertThat(response.status()).as(response.body()).isEqualTo(201);
      String requestId = response.json().path("data").path("requestId").asString();
      Document stored = database.getCollection(StkPushStore.COLLECTION).find(Filters.eq("organisationId", org))
          .first();
      assertThat(stored.getString("callbackUrl")).isNull();
      assertThat(stored.getString("referenceId")).isEqualTo(reference);
      // the sandbox rail answers; the outcome is a domain event and no callback is requested
      await().atMost(Duration.ofSeconds(15)).until(() -> TopicRecorder.records(Topics.COLLECTIONS, requestId)
          .stream().anyMatch(r -> JSON.readTree(r.value()).path("type").asString().equals("stk.succeeded")));
      // complete: every event the outcome wrote has left the outbox, and a marker sent after them has come round
      assertThat(PublishedRecords.all(Topics.CALLBACKS, requestId, database.getCollection(StkPushStore.COLLECTION),
          stored.get("_id"))).isEmpty();
    }

    @Test
    void aRepeatedReferenceIdAnswersTheSamePush() {
      String org = newOrganisation();
      String body = internalBody(org, "0712345678", "chk_repeat_1");
      String first = http().postJson(PATH, body, token(TOKEN)).json().path("data").path("requestId").asString();
      String again = http().postJson(PATH, body, token(TOKEN)).json().path("data").path("requestId").asString();
      assertThat(again).isEqualTo(first);
    }

    @Test
    void appliesTheMerchantRulesToTheFields() {
      TestHttp.Response response = http().postJson(PATH, internalBody(newOrganisation(), "+255712345678", "r1"),
          token(TOKEN));
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().path("errors").has("phoneNumber")).isTrue();
    }

    @Test
    void needsTheOrganisation() {
      TestHttp.Response response = http().postJson(PATH,
          internalBody(newOrganisation(), "0712345678", "r2").replaceFirst("\"organisationId\":\"[^\"]+\",", ""),
          token(TOKEN));
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().path("errors").has("organisationId")).isTrue();
    }

    @Test
    void refusesAWrongOrMissingToken() {
      String org = newOrganisation();
      assertThat(http().postJson(PATH, internalBody(org, "0712345678", "r3"), token("guess")).status())
          .isEqualTo(401);
      assertThat(http().postJson(PATH, internalBody(org, "0712345678", "r3"), Map.of()).status()).isEqualTo(401);
      assertThat(database.getCollection(StkPushStore.COLLECTION).countDocuments(Filters.eq("organisationId", org)))
          .isZero();
    }

    @Test
    void aMerchantTokenIsNoInternalToken() {
      TestHttp.Response response = http().postJson(PATH, internalBody(newOrganisation(), "0712345678", "r4"),
          as(newOrganisation()));
      assertThat(response.status()).isEqualTo(401);
    }
  }
}
