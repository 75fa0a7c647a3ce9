package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.model.Filters;
import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.collections.CollectionsProperties;
import dev.lipa.common.testsupport.TestHttp;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * STK prompts per phone number, with the default limits (3 a minute, 10 an hour) instead of the raised ones the other
 * tests run with: a customer is not spammed, whatever spelling of the number, organisation or path asks. The limits
 * are set on the shared service for these tests only (a second service in the test JVM would share its consumer
 * groups and take the other tests' events).
 */
class PhonePromptLimitIntegrationTests extends CollectionsIntegrationTest {

  private static final String INTERNAL = "/internal/v1/stk-pushes";

  @Autowired
  PhonePromptLimits limits;

  @Autowired
  CollectionsProperties properties;

  @BeforeEach
  void defaultLimits() {
    limits.reconfigure(new CollectionsProperties.PromptLimits(null, 1, 1000));
  }

  @AfterEach
  void raisedLimitsAgain() {
    limits.reconfigure(properties.promptLimits());
  }

  /** A fresh paying Kenyan number, as its eight national digits after 07. */
  private static String newNumber() {
    return "11" + String.format("%06d", ThreadLocalRandom.current().nextInt(1_000_000));
  }

  private TestHttp.Response push(String organisation, String phone) {
    return http().postJson(NEW, body(phone), as(organisation));
  }

  private TestHttp.Response push(String organisation, String phone, String referenceId, String key) {
    Map<String, String> headers = new HashMap<>(as(organisation));
    if (key != null) {
      headers.put("Idempotency-Key", key);
    }
    String body = referenceId == null ? body(phone)
        : body(phone).replace("\"amount\":10", "\"amount\":10,\"referenceId\":\"" + referenceId + "\"");
    return http().postJson(NEW, body, headers);
  }

  private TestHttp.Response internalPush(String organisation, String phone) {
    return http().postJson(INTERNAL, """
        {"organisationId":"%s","phoneNumber":"%s","amount":1500,"currencyCode":"KSH","description":"Order 42",
         "accountReference":"AbC123xyz789","referenceId":"chk_%s_1"}""".formatted(organisation, phone, UUID.randomUUID()),
        Map.of("X-Internal-Token", "internal-test-token"));
  }

  private long stored(String organisation) {
    return database.getCollection(StkPushStore.COLLECTION).countDocuments(Filters.eq("organisationId", organisation));
  }

  private static void assertLimited(TestHttp.Response response) {
    assertThat(response.status()).as(response.body()).isEqualTo(429);
    assertThat(response.body()).isEqualTo(
        "{\"status\":429,\"message\":\"" + PhonePromptLimits.MESSAGE + "\",\"data\":null}");
    assertThat(response.headers().firstValue("Retry-After")).hasValueSatisfying(seconds ->
        assertThat(Long.parseLong(seconds)).isBetween(1L, 60L));
  }

  @Nested
  class CreateStkPush {

    @Test
    void everySpellingOfANumberCountsAgainstTheSameAllowance() {
      String org = newOrganisation();
      String digits = newNumber();
      assertThat(push(org, "07" + digits).status()).isEqualTo(201);
      assertThat(push(org, "2547" + digits).status()).isEqualTo(201);
      assertThat(push(org, "+2547" + digits).status()).isEqualTo(201);

      assertLimited(push(org, "07" + digits));
      assertLimited(push(org, "2547" + digits));
      assertLimited(push(org, "+2547" + digits));
      // a refused push writes nothing
      assertThat(stored(org)).isEqualTo(3);
      // another number is not affected
      assertThat(push(org, "07" + newNumber()).status()).isEqualTo(201);
    }

    @Test
    void theAllowanceIsTheCustomersWhicheverOrganisationAsks() {
      String digits = newNumber();
      String first = newOrganisation();
      String second = newOrganisation();
      assertThat(push(first, "07" + digits).status()).isEqualTo(201);
      assertThat(push(first, "07" + digits).status()).isEqualTo(201);
      assertThat(push(second, "+2547" + digits).status()).isEqualTo(201);

      assertLimited(push(second, "07" + digits));
      assertThat(stored(second)).isEqualTo(1);
    }

    @Test
    void checkoutsInternalPathCountsAgainstTheSameAllowance() {
      String org = newOrganisation();
      String digits = newNumber();
      assertThat(push(org, "07" + digits).status()).isEqualTo(201);
      assertThat(internalPush(org, "2547" + digits).status()).isEqualTo(201);
      assertThat(internalPush(org, "+2547" + digits).status()).isEqualTo(201);

      assertLimited(internalPush(org, "07" + digits));
      assertLimited(push(org, "2547" + digits));
      assertThat(stored(org)).isEqualTo(3);
    }

    @Test
    void aReplayByReferenceIdCountsNothingAndIsAnsweredEvenWhenTheNumberHasHadItsPrompts() {
      String org = newOrganisation();
      String phone = "07" + newNumber();
      TestHttp.Response first = push(org, phone, "order-1", null);
      for (int i = 0; i < 3; i++) {
        assertThat(push(org, phone, "order-1", null).headers().firstValue("Idempotent-Replayed")).hasValue("true");
      }
      assertThat(push(org, phone, "order-2", null).status()).isEqualTo(201);
      assertThat(push(org, phone, "order-3", null).status()).isEqualTo(201);
      assertLimited(push(org, phone, "order-4", null));

      TestHttp.Response replay = push(org, phone, "order-1", null);

      assertThat(replay.status()).isEqualTo(201);
      assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(replay.json().path("data").path("requestId").asString())
          .isEqualTo(first.json().path("data").path("requestId").asString());
      assertThat(stored(org)).isEqualTo(3);
    }

    @Test
    void aReplayByIdempotencyKeyCountsNothingAndARefusalKeepsNoKey() {
      String org = newOrganisation();
      String phone = "07" + newNumber();
      assertThat(push(org, phone, null, "key-1").status()).isEqualTo(201);
      assertThat(push(org, phone, null, "key-1").headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(push(org, phone, null, "key-2").status()).isEqualTo(201);
      assertThat(push(org, phone, null, "key-3").status()).isEqualTo(201);

      assertLimited(push(org, phone, null, "key-4"));
      assertThat(push(org, phone, null, "key-1").headers().firstValue("Idempotent-Replayed")).hasValue("true");

      // the refused request's key was not kept: it serves a new request to another number
      TestHttp.Response reused = push(org, "07" + newNumber(), null, "key-4");
      assertThat(reused.status()).isEqualTo(201);
      assertThat(reused.headers().firstValue("Idempotent-Replayed")).isEmpty();
    }
  }
}
