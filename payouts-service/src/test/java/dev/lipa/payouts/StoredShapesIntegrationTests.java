package dev.lipa.payouts;

import static dev.lipa.common.testsupport.StoredShape.assertShape;
import static dev.lipa.common.testsupport.StoredShape.stored;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.ledger.LedgerStore;
import dev.lipa.payouts.ledger.ReservationOwners;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Pins the shape (field names and BSON types, as the store holds them) of every document this service stores:
 * payouts, transfers, top-ups, ledger accounts and journal entries. Data written by one release is read by the next:
 * a renamed field, a changed type (an amount no longer a Decimal128) or a renamed collection must fail here. The
 * outbox's own fields are pinned in common.
 */
class StoredShapesIntegrationTests extends PayoutsIntegrationTest {

  @Autowired
  LedgerStore ledgerStore;

  @Autowired
  PayoutsProperties properties;

  @Autowired
  ObjectProvider<ReservationOwners> owners;

  private MongoCollection<Document> collection(String name) {
    return database.getCollection(name);
  }

  /** The payout once the sandbox rail has answered. */
  private BsonDocument completed(String requestId) {
    return org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(
        () -> stored(collection("payouts"), Filters.eq("_id", requestId)),
        d -> !d.getString("status").getValue().equals("PENDING"));
  }

  @Nested
  class Payouts {

    @Test
    void aSuccessfulKenyanSendMoneyWithItsReferenceAndIdempotencyKey() {
      String org = newOrganisation();
      TestHttp.Response response = http().postJson(SEND_MONEY, kenyan("254712345678", 100)
          .replace("{", "{\"referenceId\":\"ref-" + UUID.randomUUID() + "\","), as(org, "shape-" + UUID.randomUUID()));
      String requestId = response.json().get("data").get("requestId").stringValue();

      assertShape(completed(requestId), """
          _id: string
          accountNumber: null
          amount: decimal128
          businessNumber: null
          callbackId: string
          callbackUrl: string
          conversationId: string
          createdAt: date_time
          currency: string
          customerName: null
          fingerprint: string
          firstName: null
          id: int64
          idempotencyKey: string
          kind: string
          lastName: null
          narration: null
          occasion: string
          organisationId: string
          originatorConversationId: string
          phoneNumber: string
          receiverName: string
          referenceId: string
          referenceKey: string
          remarks: string
          responseCode: int32
          responseDescription: string
          resultCode: int32
          resultDescription: string
          serviceCode: null
          status: string
          transactionReceipt: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }

    @Test
    void aFailedTanzanianSendMoneyWithTheReceiversNames() {
      String requestId = create(SEND_MONEY, newOrganisation(), """
          {"phoneNumber":"255710000001","amount":1000,"currencyCode":"TZS","narration":"wages","firstName":"Asha",
           "lastName":"Juma","serviceCode":"TZ-TIGO-B2C","callbackUrl":"https://merchant.example/cb"}""");

      assertShape(completed(requestId), """
          _id: string
          accountNumber: null
          amount: decimal128
          businessNumber: null
          callbackId: string
          callbackUrl: string
          conversationId: string
          createdAt: date_time
          currency: string
          customerName: null
          fingerprint: string
          firstName: string
          id: int64
          kind: string
          lastName: string
          narration: string
          occasion: null
          organisationId: string
          originatorConversationId: string
          phoneNumber: string
          receiverName: null
          remarks: null
          responseCode: int32
          responseDescription: string
          resultCode: int32
          resultDescription: string
          serviceCode: string
          status: string
          transactionReceipt: null
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }

    @Test
    void aTillPayment() {
      String requestId = create(TILL, newOrganisation(), """
          {"businessNumber":"174379","accountNumber":"INV-7","amount":120,"remarks":"stock",
           "callbackUrl":"https://merchant.example/till"}""");

      assertShape(completed(requestId), """
          _id: string
          accountNumber: string
          amount: decimal128
          businessNumber: string
          callbackId: string
          callbackUrl: string
          conversationId: string
          createdAt: date_time
          currency: string
          customerName: null
          fingerprint: string
          firstName: null
          id: int64
          kind: string
          lastName: null
          narration: null
          occasion: null
          organisationId: string
          originatorConversationId: string
          phoneNumber: null
          receiverName: string
          remarks: string
          responseCode: int32
          responseDescription: string
          resultCode: int32
          resultDescription: string
          serviceCode: null
          status: string
          transactionReceipt: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }
  }

  @Nested
  class Transfers {

    @Test
    void anAllocationToASubAccount() {
      String parent = newOrganisation();
      String child = newOrganisation();
      subAccount(child, parent);
      TestHttp.Response response = http().postJson("/api/sandbox/v1/de-allocations/allocate",
          "{\"subAccountId\":\"%s\",\"amount\":300,\"currency\":\"KSH\",\"referenceId\":\"a-1\"}".formatted(child),
          as(parent, "shape-" + UUID.randomUUID()));
      String requestId = response.json().get("data").get("requestId").stringValue();

      assertShape(stored(collection("transfers"), Filters.eq("_id", requestId)), """
          _id: string
          amount: decimal128
          createdAt: date_time
          currency: string
          fingerprint: string
          idempotencyKey: string
          initiatedBy: string
          parentOrganisationId: string
          referenceId: string
          referenceKey: string
          status: string
          subAccountId: string
          type: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }
  }

  @Nested
  class TopUps {

    @Test
    void aSandboxTopUp() {
      String org = newOrganisation();
      http().postJson(BALANCE + "/top-up", "{\"currency\":\"UGX\",\"amount\":500,\"referenceId\":\"float-1\"}",
          as(org));

      assertShape(stored(collection("top_ups"), Filters.eq("organisationId", org)), """
          _id: string
          amount: decimal128
          availableAfter: decimal128
          createdAt: date_time
          currency: string
          fingerprint: string
          organisationId: string
          referenceId: string
          referenceKey: string
          reservedAfter: decimal128
          status: string
          updatedAt: date_time
          """);
    }
  }

  @Nested
  class LedgerDocuments {

    /**
     * A ledger whose clock stands a day ahead: the hold of its reservation is younger than any orphan limit, so the
     * repair jobs leave it alone while the account is read.
     */
    private Ledger aheadOfTime() {
      return new Ledger(ledgerStore, owners, properties,
          Clock.fixed(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC));
    }

    @Test
    void anAccountHoldingAReservation() {
      String org = newOrganisation();
      RequestId requestId = RequestId.random();
      try (Ledger ledger = aheadOfTime()) {
        ledger.reserve(OrganisationId.of(org), Currency.KSH, requestId, new BigDecimal("100"));
      }

      assertShape(stored(collection("ledger_accounts"), Filters.eq("_id", org + ":KSH")), """
          _id: string
          available: decimal128
          createdAt: date_time
          currency: string
          holds: array
          holds[]: document
          holds[].amount: decimal128
          holds[].at: date_time
          holds[].requestId: string
          organisationId: string
          pending: array
          pending[]: (empty)
          recent: array
          recent[]: string
          reserved: decimal128
          updatedAt: date_time
          """);
    }

    @Test
    void theJournalsEntriesOfAnOpeningAReservationAndItsRelease() {
      String org = newOrganisation();
      RequestId requestId = RequestId.random();
      try (Ledger ledger = aheadOfTime()) {
        ledger.reserve(OrganisationId.of(org), Currency.KSH, requestId, new BigDecimal("100"));
        ledger.release(OrganisationId.of(org), Currency.KSH, requestId, new BigDecimal("100"));
      }

      assertShape(stored(collection("ledger_entries"), Filters.eq("_id", org + ":KSH:opening")), """
          _id: string
          amount: decimal128
          at: date_time
          availableChange: decimal128
          currency: string
          kind: string
          organisationId: string
          requestId: string
          reservedChange: decimal128
          """);
      assertShape(stored(collection("ledger_entries"), Filters.eq("_id", requestId + ":reserve")), """
          _id: string
          amount: decimal128
          at: date_time
          availableChange: decimal128
          currency: string
          kind: string
          organisationId: string
          requestId: string
          reservedChange: decimal128
          """);
      assertShape(stored(collection("ledger_entries"), Filters.eq("_id", requestId + ":release")), """
          _id: string
          amount: decimal128
          at: date_time
          availableChange: decimal128
          currency: string
          kind: string
          organisationId: string
          requestId: string
          reservedChange: decimal128
          """);
      assertShape(stored(collection("ledger_accounts"), Filters.eq("_id", org + ":KSH")), """
          _id: string
          available: decimal128
          createdAt: date_time
          currency: string
          holds: array
          holds[]: (empty)
          organisationId: string
          pending: array
          pending[]: (empty)
          recent: array
          recent[]: string
          reserved: decimal128
          updatedAt: date_time
          """);
    }
  }
}
