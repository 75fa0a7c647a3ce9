package dev.lipa.payouts.topup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotentEndpoint;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.ledger.LedgerStore;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.requests.RequestIdentity;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

class TopUpIntegrationTests extends PayoutsIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String TOP_UP = BALANCE + "/top-up";

  @Autowired
  LedgerStore ledgerStore;

  @Autowired
  TopUpStore topUpStore;

  private static String body(String currency, int amount, String referenceId) {
    return referenceId == null ? "{\"currency\":\"%s\",\"amount\":%d}".formatted(currency, amount)
        : "{\"currency\":\"%s\",\"amount\":%d,\"referenceId\":\"%s\"}".formatted(currency, amount, referenceId);
  }

  private List<String> topUpMovements(String org, Currency currency) {
    return ledgerStore.entries(OrganisationId.of(org), currency).stream().filter(e -> e.kind().name().equals("TOP_UP"))
        .map(e -> e.requestId()).toList();
  }

  private long topUpsOf(String org) {
    return database.getCollection(TopUpStore.COLLECTION).countDocuments(new Document("organisationId", org));
  }

  @Nested
  class TopUpEndpoint {

    @Test
    void answersWithTheBalanceAfterItAndTheTopUpsOwnFields() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(TOP_UP, body("UGX", 500, "float-1"), as(org));

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("data").propertyNames()).containsExactly("currency", "available", "reserved",
          "requestId", "amount", "referenceId");
      assertThat(response.json().get("data").get("available").decimalValue()).isEqualByComparingTo("50500");
      assertThat(response.json().get("data").get("referenceId").stringValue()).isEqualTo("float-1");
      assertThat(topUpMovements(org, Currency.UGX))
          .containsExactly(response.json().get("data").get("requestId").stringValue());
    }

    @Test
    void aRepeatedKeyOrReferenceIdReplaysTheFirstAnswerAndAddsOnce() {
      String org = newOrganisation();

      TestHttp.Response first = http().postJson(TOP_UP, body("KSH", 250, "t-1"), as(org, "top-1"));
      TestHttp.Response sameKey = http().postJson(TOP_UP, body("KSH", 250, "t-1"), as(org, "top-1"));
      TestHttp.Response sameReference = http().postJson(TOP_UP, body("KSH", 250, "t-1"), as(org));
      TestHttp.Response changedKeyBody = http().postJson(TOP_UP, body("KSH", 251, null), as(org, "top-1"));
      TestHttp.Response changedReferenceBody = http().postJson(TOP_UP, body("TZS", 250, "t-1"), as(org));

      assertThat(first.status()).isEqualTo(200);
      assertThat(List.of(sameKey, sameReference)).allSatisfy(r -> {
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(r.json()).isEqualTo(first.json());
      });
      assertThat(changedKeyBody.status()).isEqualTo(409);
      assertThat(changedKeyBody.json().get("message").stringValue()).isEqualTo(IdempotentEndpoint.MISMATCH_MESSAGE);
      assertThat(changedReferenceBody.status()).isEqualTo(409);
      assertThat(changedReferenceBody.json().get("message").stringValue())
          .isEqualTo("referenceId t-1 was already used with a different request body");
      assertThat(topUpMovements(org, Currency.KSH)).hasSize(1);
      assertThat(topUpMovements(org, Currency.TZS)).isEmpty();
      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo("1250");
      assertThat(balance(org, "TZS")[0]).isEqualByComparingTo("50000");
    }

    @Test
    void twentyConcurrentDuplicatesAddOnceWhetherByKeyOrByReferenceId() {
      String org = newOrganisation();

      List<TestHttp.Response> byKey = concurrently(20,
          () -> http().postJson(TOP_UP, body("KSH", 100, null), as(org, "storm")));
      List<TestHttp.Response> byReference = concurrently(20,
          () -> http().postJson(TOP_UP, body("UGX", 100, "storm"), as(org)));

      for (List<TestHttp.Response> answers : List.of(byKey, byReference)) {
        assertThat(answers).allSatisfy(r -> assertThat(r.status()).as(r.body()).isIn(200, 409));
        assertThat(answers.stream().filter(r -> r.status() == 200)
            .map(r -> r.json().get("data").get("requestId").stringValue()).distinct()).hasSize(1);
      }
      assertThat(topUpMovements(org, Currency.KSH)).hasSize(1);
      assertThat(topUpMovements(org, Currency.UGX)).hasSize(1);
      assertThat(topUpsOf(org)).isEqualTo(2);
      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo("1100");
      assertThat(balance(org, "UGX")[0]).isEqualByComparingTo("50100");
    }

    @Test
    void aRefusedRequestWritesNothingAndLeavesTheKeyAndReferenceIdFree() {
      String org = newOrganisation();

      TestHttp.Response invalid = http().postJson(TOP_UP, "{\"currency\":\"EUR\",\"amount\":1.5,\"referenceId\":\"t\"}",
          as(org, "fix-me"));

      assertThat(invalid.status()).isEqualTo(400);
      assertThat(invalid.json().get("errors").propertyNames()).containsExactlyInAnyOrder("currency", "amount");
      assertThat(topUpsOf(org)).isZero();
      assertThat(database.getCollection(IdempotencyKeys.COLLECTION).countDocuments(new Document("organisationId", org)))
          .isZero();
      TestHttp.Response corrected = http().postJson(TOP_UP, body("KSH", 2, "t"), as(org, "fix-me"));
      assertThat(corrected.status()).isEqualTo(200);
      assertThat(corrected.headers().firstValue("Idempotent-Replayed")).isEmpty();
      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo("1002");
    }

    @Test
    void withoutAKeyOrAReferenceIdEachRequestAddsAgain() {
      String org = newOrganisation();

      http().postJson(TOP_UP, body("KSH", 10, null), as(org));
      http().postJson(BALANCE + "s/top-up", body("KSH", 10, null), as(org));

      assertThat(topUpMovements(org, Currency.KSH)).hasSize(2);
      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo("1020");
    }

    @Test
    void theResumeJobFinishesATopUpACrashLeftPendingOnce() {
      String org = newOrganisation();
      Instant created = Instant.now().minusSeconds(60);
      RequestId requestId = RequestId.random();
      topUpStore.insert(new TopUp(requestId, OrganisationId.of(org), Currency.KSH, new BigDecimal("40"), "lost",
              TopUp.Status.PENDING, null, created, created),
          new RequestIdentity(OrganisationId.of(org), "POST /api/sandbox/v1/balance/top-up",
              RequestFingerprint.of(JSON.readTree(body("KSH", 40, "lost"))), "lost", null),
          "a-request-that-died", created.plusSeconds(30));

      await(() -> "APPLIED".equals(database.getCollection(TopUpStore.COLLECTION)
          .find(new Document("_id", requestId.toString())).first().getString("status")));
      TestHttp.Response repeat = http().postJson(TOP_UP, body("KSH", 40, "lost"), as(org));

      assertThat(repeat.status()).isEqualTo(200);
      assertThat(repeat.json().get("data").get("requestId").stringValue()).isEqualTo(requestId.toString());
      assertThat(topUpMovements(org, Currency.KSH)).containsExactly(requestId.toString());
      assertThat(balance(org, "KSH")[0]).isEqualByComparingTo("1040");
    }
  }
}
