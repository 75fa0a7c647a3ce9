package dev.lipa.payouts.deallocation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotentEndpoint;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TopicRecorder;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.ledger.LedgerStore;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.requests.RequestIdentity;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.bson.Document;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class DeallocationIntegrationTests extends PayoutsIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String BASE = "/api/sandbox/v1/de-allocations";
  private static final String ALLOCATE = BASE + "/allocate";
  private static final String REFERENCE_IN_FLIGHT = "a request with this referenceId is still being processed";

  @Autowired
  LedgerStore ledgerStore;

  @Autowired
  Ledger ledger;

  @Autowired
  TransferStore transferStore;

  private static String body(String subAccountId, int amount) {
    return "{\"subAccountId\":\"%s\",\"amount\":%d,\"currency\":\"KSH\"}".formatted(subAccountId, amount);
  }

  private static String body(String subAccountId, int amount, String referenceId) {
    return "{\"subAccountId\":\"%s\",\"amount\":%d,\"currency\":\"KSH\",\"referenceId\":\"%s\"}"
        .formatted(subAccountId, amount, referenceId);
  }

  /** A parent and its sub-account, each with the test float (KSH 1000). */
  private record Family(String parent, String child) {
  }

  private Family family() {
    Family family = new Family(newOrganisation(), newOrganisation());
    subAccount(family.child(), family.parent());
    return family;
  }

  private long transfersInitiatedBy(String organisationId) {
    return database.getCollection(TransferStore.COLLECTION).countDocuments(new Document("initiatedBy", organisationId));
  }

  private long keysOf(String organisationId) {
    return database.getCollection(IdempotencyKeys.COLLECTION)
        .countDocuments(new Document("organisationId", organisationId));
  }

  /** The kinds of the account's ledger movements, opening float included. */
  private List<String> movements(String organisationId) {
    return ledgerStore.entries(OrganisationId.of(organisationId), Currency.KSH).stream().map(e -> e.kind().name())
        .toList();
  }

  /** Exactly one transfer of {@code amount} from {@code payer} to {@code payee}: one movement per side. */
  private void assertMovedOnce(String payer, String payee, int amount) {
    assertThat(movements(payer)).containsExactly("OPENING", "TRANSFER_OUT");
    assertThat(movements(payee)).containsExactly("OPENING", "TRANSFER_IN");
    assertThat(balance(payer, "KSH")).containsExactly(new BigDecimal(1000 - amount), BigDecimal.ZERO);
    assertThat(balance(payee, "KSH")).containsExactly(new BigDecimal(1000 + amount), BigDecimal.ZERO);
  }

  private static String requestId(TestHttp.Response response) {
    return response.json().get("data").get("requestId").stringValue();
  }

  @Nested
  class AllocateAndDeallocate {

    @Test
    void movesFundsToASubAccountAndBackAndListsTheDeallocationForBoth() {
      Family f = family();

      assertThat(http().postJson(ALLOCATE, body(f.child(), 300), as(f.parent())).status()).isEqualTo(201);
      TestHttp.Response back = http().postJson(BASE, body(f.child(), 1200), as(f.child()));
      assertThat(back.status()).isEqualTo(201);
      JsonNode item = back.json().get("data");
      assertThat(item.propertyNames()).containsExactly("status", "requestId", "amount");
      assertThat(item.get("status").stringValue()).isEqualTo("SUCCESS");

      assertThat(balance(f.parent(), "KSH")).containsExactly(new BigDecimal("1900"), BigDecimal.ZERO);
      assertThat(balance(f.child(), "KSH")).containsExactly(new BigDecimal("100"), BigDecimal.ZERO);
      String requestId = item.get("requestId").stringValue();
      assertThat(http().get(BASE + "/org/all", as(f.child())).json().get("data").toString())
          .isEqualTo("[{\"status\":\"SUCCESS\",\"requestId\":\"" + requestId + "\",\"amount\":1200}]");
      assertThat(http().get(BASE + "/org/all/admins?parentOrganisationId=" + f.parent(), as(f.parent())).json()
          .get("data").get(0).get("requestId").stringValue()).isEqualTo(requestId);
      assertThat(http().get(BASE + "/org/all", as(f.parent())).json().get("data")).isEmpty();
      await(() -> !TopicRecorder.records(Topics.PAYOUTS, requestId).isEmpty());
      JsonNode event = JSON.readTree(TopicRecorder.records(Topics.PAYOUTS, requestId).getFirst().value());
      assertThat(event.get("type").stringValue()).isEqualTo("deallocation.succeeded");
      assertThat(event.get("organisationId").stringValue()).isEqualTo(f.child());
      assertThat(event.get("data").get("parentOrganisationId").stringValue()).isEqualTo(f.parent());
    }

    /**
     * Pins the exact JSON of the transfer events on payments.payouts.v1 (the contract this service owns); only the
     * generated values are filled in by name.
     */
    @Test
    void publishesEachTransfersEventInItsPinnedShape() {
      Family f = family();
      String allocated = requestId(http().postJson(ALLOCATE, body(f.child(), 300, "alloc-1"), as(f.parent())));
      String deallocated = requestId(http().postJson(BASE, body(f.child(), 200), as(f.parent())));

      await(() -> !TopicRecorder.records(Topics.PAYOUTS, allocated).isEmpty()
          && !TopicRecorder.records(Topics.PAYOUTS, deallocated).isEmpty());
      assertTransferEvent(allocated, f, """
          {"eventId":"<eventId>","type":"allocation.succeeded","version":1,"occurredAt":"<occurredAt>",\
          "organisationId":"<parent>","data":{"requestId":"<requestId>","referenceId":"alloc-1",\
          "parentOrganisationId":"<parent>","subAccountId":"<child>","initiatedBy":"<parent>","amount":300,\
          "currency":"KSH","status":"SUCCESS"}}""");
      assertTransferEvent(deallocated, f, """
          {"eventId":"<eventId>","type":"deallocation.succeeded","version":1,"occurredAt":"<occurredAt>",\
          "organisationId":"<child>","data":{"requestId":"<requestId>","referenceId":null,\
          "parentOrganisationId":"<parent>","subAccountId":"<child>","initiatedBy":"<parent>","amount":200,\
          "currency":"KSH","status":"SUCCESS"}}""");
    }

    private void assertTransferEvent(String requestId, Family f, String pinned) {
      org.apache.kafka.clients.consumer.ConsumerRecord<String, String> record =
          TopicRecorder.records(Topics.PAYOUTS, requestId).getFirst();
      JsonNode event = JSON.readTree(record.value());
      assertThat(record.key()).isEqualTo(requestId);
      assertThat(record.value()).isEqualTo(pinned.replace("<eventId>", event.get("eventId").stringValue())
          .replace("<occurredAt>", event.get("occurredAt").stringValue()).replace("<requestId>", requestId)
          .replace("<parent>", f.parent()).replace("<child>", f.child()));
    }

    @Test
    void aDeallocationTheSubAccountCannotCoverIsRefusedAndLeavesNoRecord() {
      Family f = family();

      TestHttp.Response response = http().postJson(BASE, body(f.child(), 1001), as(f.parent()));

      assertThat(response.status()).isEqualTo(422);
      assertThat(response.json().get("message").stringValue()).isEqualTo("insufficient balance: available 1000 KSH");
      assertThat(response.json().get("data").isNull()).isTrue();
      assertThat(balance(f.child(), "KSH")).containsExactly(new BigDecimal("1000"), BigDecimal.ZERO);
      assertThat(balance(f.parent(), "KSH")).containsExactly(new BigDecimal("1000"), BigDecimal.ZERO);
      assertThat(transfersInitiatedBy(f.parent())).isZero();
      assertThat(http().get(BASE + "/org/all", as(f.child())).json().get("data")).isEmpty();
    }

    @Test
    void refusesOrganisationsThatAreNotTheParentOrTheSubAccountAlike() {
      Family f = family();
      String stranger = newOrganisation();

      assertThat(http().postJson(ALLOCATE, body(f.child(), 1), as(stranger)).status()).isEqualTo(404);
      assertThat(http().postJson(ALLOCATE, body(f.parent(), 1), as(f.child())).status()).isEqualTo(404);
      assertThat(http().postJson(BASE, body(f.child(), 1), as(stranger)).status()).isEqualTo(404);
      assertThat(http().postJson(BASE, body(newOrganisation(), 1), as(stranger)).status()).isEqualTo(404);
      assertThat(http().get(BASE + "/org/all/admins?parentOrganisationId=" + f.parent(), as(f.child())).status())
          .isEqualTo(404);
      assertThat(http().get(BASE + "/org/all/admins?parentOrganisationId=" + f.parent(), as(stranger)).status())
          .isEqualTo(404);
    }
  }

  @Nested
  class Allocate {

    @Test
    void aRepeatedIdempotencyKeyReplaysTheFirstAnswerAndMovesTheMoneyOnce() {
      Family f = family();

      TestHttp.Response first = http().postJson(ALLOCATE, body(f.child(), 300), as(f.parent(), "alloc-1"));
      TestHttp.Response again = http().postJson(ALLOCATE, body(f.child(), 300), as(f.parent(), "alloc-1"));
      TestHttp.Response changed = http().postJson(ALLOCATE, body(f.child(), 301), as(f.parent(), "alloc-1"));

      assertThat(first.status()).isEqualTo(201);
      assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
      assertThat(again.status()).isEqualTo(201);
      assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(again.json()).isEqualTo(first.json());
      assertThat(changed.status()).isEqualTo(409);
      assertThat(changed.json().get("message").stringValue()).isEqualTo(IdempotentEndpoint.MISMATCH_MESSAGE);
      assertThat(transfersInitiatedBy(f.parent())).isEqualTo(1);
      assertMovedOnce(f.parent(), f.child(), 300);
    }

    @Test
    void aRepeatedReferenceIdReplaysTheFirstTransferAndMovesTheMoneyOnce() {
      Family f = family();

      TestHttp.Response first = http().postJson(ALLOCATE, body(f.child(), 300, "inv-7"), as(f.parent()));
      TestHttp.Response again = http().postJson(ALLOCATE, body(f.child(), 300, "inv-7"), as(f.parent()));
      // a new key does not make a repeated referenceId a new transfer
      TestHttp.Response newKey = http().postJson(ALLOCATE, body(f.child(), 300, "inv-7"), as(f.parent(), "k-9"));
      TestHttp.Response changed = http().postJson(ALLOCATE, body(f.child(), 250, "inv-7"), as(f.parent()));

      assertThat(first.status()).isEqualTo(201);
      assertThat(again.status()).isEqualTo(201);
      assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(again.json()).isEqualTo(first.json());
      assertThat(newKey.status()).isEqualTo(201);
      assertThat(requestId(newKey)).isEqualTo(requestId(first));
      assertThat(changed.status()).isEqualTo(409);
      assertThat(changed.json().get("message").stringValue())
          .isEqualTo("referenceId inv-7 was already used with a different request body");
      assertThat(transfersInitiatedBy(f.parent())).isEqualTo(1);
      assertMovedOnce(f.parent(), f.child(), 300);
    }

    @Test
    void twentyConcurrentDuplicatesWithOneIdempotencyKeyMoveTheMoneyOnce() {
      Family f = family();

      List<TestHttp.Response> answers = concurrently(20,
          () -> http().postJson(ALLOCATE, body(f.child(), 300), as(f.parent(), "retry-storm")));

      assertOneTransferAnswered(answers, IdempotentEndpoint.IN_FLIGHT_MESSAGE);
      assertThat(transfersInitiatedBy(f.parent())).isEqualTo(1);
      assertMovedOnce(f.parent(), f.child(), 300);
    }

    @Test
    void twentyConcurrentDuplicatesWithOneReferenceIdMoveTheMoneyOnce() {
      Family f = family();

      List<TestHttp.Response> answers = concurrently(20,
          () -> http().postJson(ALLOCATE, body(f.child(), 300, "storm-1"), as(f.parent())));

      assertOneTransferAnswered(answers, REFERENCE_IN_FLIGHT);
      assertThat(transfersInitiatedBy(f.parent())).isEqualTo(1);
      assertMovedOnce(f.parent(), f.child(), 300);
    }

    /** Every answer is the one transfer (201, new or replayed) or a 409 saying it is still in flight. */
    private void assertOneTransferAnswered(List<TestHttp.Response> answers, String inFlight) {
      Set<String> requestIds = answers.stream().filter(r -> r.status() == 201).map(DeallocationIntegrationTests::requestId)
          .collect(Collectors.toSet());
      assertThat(requestIds).hasSize(1);
      assertThat(answers).allSatisfy(r -> {
        if (r.status() != 201) {
          assertThat(r.status()).as(r.body()).isEqualTo(409);
          assertThat(r.json().get("message").stringValue()).isEqualTo(inFlight);
        }
      });
      assertThat(answers.stream().filter(r -> r.status() == 201 && r.headers().firstValue("Idempotent-Replayed")
          .isEmpty())).hasSize(1);
    }

    @Test
    void refusedRequestsWriteNothingAndLeaveTheKeyAndReferenceIdFree() {
      Family f = family();
      String unrelated = newOrganisation();
      balance(f.parent(), "KSH"); // both accounts open with their float
      balance(f.child(), "KSH");

      TestHttp.Response invalid = http().postJson(ALLOCATE, body(f.child(), 300, "r-1").replace("300", "30.5"),
          as(f.parent(), "k-1"));
      TestHttp.Response notFound = http().postJson(ALLOCATE, body(unrelated, 300, "r-1"), as(f.parent(), "k-1"));
      TestHttp.Response uncovered = http().postJson(ALLOCATE, body(f.child(), 1001, "r-1"), as(f.parent(), "k-1"));

      assertThat(invalid.status()).isEqualTo(400);
      assertThat(notFound.status()).isEqualTo(404);
      assertThat(uncovered.status()).isEqualTo(422);
      assertThat(transfersInitiatedBy(f.parent())).isZero();
      assertThat(keysOf(f.parent())).isZero();
      assertThat(movements(f.parent())).containsExactly("OPENING");
      assertThat(movements(f.child())).containsExactly("OPENING");

      TestHttp.Response corrected = http().postJson(ALLOCATE, body(f.child(), 300, "r-1"), as(f.parent(), "k-1"));
      assertThat(corrected.status()).isEqualTo(201);
      assertThat(corrected.headers().firstValue("Idempotent-Replayed")).isEmpty();
      assertMovedOnce(f.parent(), f.child(), 300);
    }

    @Test
    void withoutAKeyOrAReferenceIdEachRequestIsANewAllocation() {
      Family f = family();

      String first = requestId(http().postJson(ALLOCATE, body(f.child(), 100), as(f.parent())));
      String second = requestId(http().postJson(ALLOCATE, body(f.child(), 100), as(f.parent())));

      assertThat(first).isNotEqualTo(second);
      assertThat(balance(f.parent(), "KSH")[0]).isEqualByComparingTo("800");
      assertThat(balance(f.child(), "KSH")[0]).isEqualByComparingTo("1200");
    }

    @Test
    void aReferenceIdBelongsToTheCallerAndIsAtMost64Characters() {
      Family one = family();
      Family other = family();

      assertThat(http().postJson(ALLOCATE, body(one.child(), 100, "same"), as(one.parent())).status()).isEqualTo(201);
      assertThat(http().postJson(ALLOCATE, body(other.child(), 100, "same"), as(other.parent())).status())
          .isEqualTo(201);
      TestHttp.Response tooLong = http().postJson(ALLOCATE, body(one.child(), 100, "r".repeat(65)), as(one.parent()));
      TestHttp.Response badKey = http().postJson(ALLOCATE, body(one.child(), 100), as(one.parent(), "k".repeat(256)));

      assertThat(tooLong.status()).isEqualTo(400);
      assertThat(tooLong.json().get("errors").propertyNames()).containsExactly("referenceId");
      assertThat(badKey.status()).isEqualTo(400);
      assertThat(badKey.json().get("errors").propertyNames()).containsExactly("Idempotency-Key");
      assertThat(balance(one.parent(), "KSH")[0]).isEqualByComparingTo("900");
      assertThat(balance(other.parent(), "KSH")[0]).isEqualByComparingTo("900");
    }
  }

  @Nested
  class Deallocate {

    @Test
    void aRepeatedKeyOrReferenceIdReplaysTheFirstAnswerAndMovesTheMoneyOnce() {
      Family f = family();

      TestHttp.Response first = http().postJson(BASE, body(f.child(), 200, "back-1"), as(f.child(), "dk-1"));
      TestHttp.Response sameKey = http().postJson(BASE, body(f.child(), 200, "back-1"), as(f.child(), "dk-1"));
      TestHttp.Response sameReference = http().postJson(BASE, body(f.child(), 200, "back-1"), as(f.child()));
      TestHttp.Response changedKeyBody = http().postJson(BASE, body(f.child(), 201), as(f.child(), "dk-1"));
      TestHttp.Response changedReferenceBody = http().postJson(BASE, body(f.child(), 201, "back-1"), as(f.child()));

      assertThat(first.status()).isEqualTo(201);
      assertThat(List.of(sameKey, sameReference)).allSatisfy(r -> {
        assertThat(r.status()).isEqualTo(201);
        assertThat(r.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(r.json()).isEqualTo(first.json());
      });
      assertThat(changedKeyBody.status()).isEqualTo(409);
      assertThat(changedReferenceBody.status()).isEqualTo(409);
      assertThat(transfersInitiatedBy(f.child())).isEqualTo(1);
      assertMovedOnce(f.child(), f.parent(), 200);
      assertThat(http().get(BASE + "/org/all", as(f.child())).json().get("data")).hasSize(1);
    }

    @Test
    void refusedRequestsWriteNothingAndLeaveTheKeyAndReferenceIdFree() {
      Family f = family();
      balance(f.parent(), "KSH"); // both accounts open with their float
      balance(f.child(), "KSH");

      TestHttp.Response invalid = http().postJson(BASE, "{\"subAccountId\":\"" + f.child() + "\",\"amount\":\"5\","
          + "\"referenceId\":\"d-1\"}", as(f.parent(), "dk-2"));
      TestHttp.Response notFound = http().postJson(BASE, body(newOrganisation(), 5, "d-1"), as(f.parent(), "dk-2"));
      TestHttp.Response uncovered = http().postJson(BASE, body(f.child(), 1001, "d-1"), as(f.parent(), "dk-2"));

      assertThat(invalid.status()).isEqualTo(400);
      assertThat(notFound.status()).isEqualTo(404);
      assertThat(uncovered.status()).isEqualTo(422);
      assertThat(transfersInitiatedBy(f.parent())).isZero();
      assertThat(keysOf(f.parent())).isZero();
      assertThat(movements(f.child())).containsExactly("OPENING");
      assertThat(movements(f.parent())).containsExactly("OPENING");

      TestHttp.Response corrected = http().postJson(BASE, body(f.child(), 1000, "d-1"), as(f.parent(), "dk-2"));
      assertThat(corrected.status()).isEqualTo(201);
      assertMovedOnce(f.child(), f.parent(), 1000);
    }
  }

  @Nested
  class AfterACrash {

    /** Stores a PENDING transfer as a request that died after its insert would have left it. */
    private Transfer abandoned(Family f, int amount, String referenceId) {
      Instant created = Instant.now().minusSeconds(60);
      OrganisationId parent = OrganisationId.of(f.parent());
      Transfer transfer = new Transfer(RequestId.random(), Transfer.Type.ALLOCATION, parent,
          OrganisationId.of(f.child()), parent, Currency.KSH, new BigDecimal(amount), referenceId,
          Transfer.Status.PENDING, created, created);
      String scope = "POST " + ALLOCATE;
      transferStore.insert(transfer, new RequestIdentity(parent, scope,
              RequestFingerprint.of(JSON.readTree(body(f.child(), amount, referenceId))), referenceId, null),
          "a-request-that-died", created.plusSeconds(30));
      return transfer;
    }

    private String statusOf(Transfer transfer) {
      Document stored = database.getCollection(TransferStore.COLLECTION)
          .find(new Document("_id", transfer.requestId().toString())).first();
      return stored == null ? "GONE" : stored.getString("status");
    }

    @Test
    void theResumeJobFinishesATransferLeftBetweenItsLegsAndARepeatGetsItsAnswer() {
      Family f = family();
      Transfer transfer = abandoned(f, 300, "crash-1");
      ledger.transferOut(OrganisationId.of(f.parent()), Currency.KSH, transfer.requestId().toString(),
          new BigDecimal("300"));

      await(() -> statusOf(transfer).equals("SUCCESS"));
      TestHttp.Response repeat = http().postJson(ALLOCATE, body(f.child(), 300, "crash-1"), as(f.parent()));

      assertThat(repeat.status()).isEqualTo(201);
      assertThat(repeat.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(requestId(repeat)).isEqualTo(transfer.requestId().toString());
      assertThat(transfersInitiatedBy(f.parent())).isEqualTo(1);
      assertMovedOnce(f.parent(), f.child(), 300);
    }

    @Test
    void aRepeatWhileTheTransferIsPendingIsInFlightAndMovesNothing() {
      Family f = family();
      balance(f.parent(), "KSH");
      Instant now = Instant.now();
      OrganisationId parent = OrganisationId.of(f.parent());
      Transfer transfer = new Transfer(RequestId.random(), Transfer.Type.ALLOCATION, parent,
          OrganisationId.of(f.child()), parent, Currency.KSH, new BigDecimal(300), "slow-1", Transfer.Status.PENDING,
          now, now);
      // a request still working on it: its claim runs for another 30 s
      transferStore.insert(transfer, new RequestIdentity(parent, "POST " + ALLOCATE,
          RequestFingerprint.of(JSON.readTree(body(f.child(), 300, "slow-1"))), "slow-1", null), "busy",
          now.plusSeconds(30));

      TestHttp.Response repeat = http().postJson(ALLOCATE, body(f.child(), 300, "slow-1"), as(f.parent()));

      assertThat(repeat.status()).isEqualTo(409);
      assertThat(repeat.json().get("message").stringValue()).isEqualTo(REFERENCE_IN_FLIGHT);
      assertThat(movements(f.parent())).containsExactly("OPENING");
      assertThat(statusOf(transfer)).isEqualTo("PENDING");
    }

    @Test
    void theResumeJobRemovesATransferThePayerCannotCover() {
      Family f = family();
      Transfer transfer = abandoned(f, 5000, "crash-2");

      await(() -> statusOf(transfer).equals("GONE"));

      assertThat(movements(f.parent())).containsExactly("OPENING");
      assertThat(balance(f.parent(), "KSH")[0]).isEqualByComparingTo("1000");
      assertThat(balance(f.child(), "KSH")[0]).isEqualByComparingTo("1000");
    }
  }
}
