package dev.lipa.collections;

import static dev.lipa.common.testsupport.StoredShape.assertShape;
import static dev.lipa.common.testsupport.StoredShape.stored;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.Filters;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Pins the shape (field names and BSON types, as the store holds them) of the STK pushes this service stores, in each
 * final state and for each country's fields. Data written by one release is read by the next: a renamed field or a
 * changed type must fail here. The outbox's own fields are pinned in common; bank collections in
 * {@code BankCollectionIntegrationTests}.
 */
class StoredShapesIntegrationTests extends CollectionsIntegrationTest {

  /** The push once the sandbox rail has answered, its outbox fields left out. */
  private BsonDocument completed(String requestId) {
    return await().atMost(Duration.ofSeconds(20)).until(
        () -> stored(database.getCollection("stk_pushes"), Filters.eq("_id", requestId)),
        d -> !d.getString("status").getValue().equals("PENDING"));
  }

  @Nested
  class StkPushes {

    @Test
    void aSuccessfulKenyanPushWithItsReferenceAndIdempotencyKey() {
      String org = newOrganisation();
      Map<String, String> headers = new HashMap<>(as(org));
      headers.put("Idempotency-Key", "shape-" + UUID.randomUUID());
      TestHttp.Response response = http().postJson(NEW, body("0712345678")
          .replace("{", "{\"referenceId\":\"ref-" + UUID.randomUUID() + "\","), headers);
      String requestId = response.json().get("data").get("requestId").stringValue();

      assertShape(completed(requestId), """
          _id: string
          accountReference: string
          amount: decimal128
          callbackId: string
          callbackUrl: string
          channel: null
          checkoutRequestId: string
          createdAt: date_time
          currency: string
          customerMessage: string
          customerName: null
          description: string
          fingerprint: string
          id: int64
          idempotencyKey: string
          merchantRequestId: string
          narration: null
          organisationId: string
          phoneNumber: string
          receipt: string
          referenceId: string
          referenceKey: string
          responseCode: int32
          responseDescription: string
          resultCode: int32
          resultDescription: string
          status: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }

    @Test
    void aFailedKenyanPushHasNoReceipt() {
      String requestId = create(newOrganisation(), body("254700001032"));

      assertShape(completed(requestId), """
          _id: string
          accountReference: string
          amount: decimal128
          callbackId: string
          callbackUrl: string
          channel: null
          checkoutRequestId: string
          createdAt: date_time
          currency: string
          customerMessage: string
          customerName: null
          description: string
          fingerprint: string
          id: int64
          merchantRequestId: string
          narration: null
          organisationId: string
          phoneNumber: string
          responseCode: int32
          responseDescription: string
          resultCode: int32
          resultDescription: string
          status: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }

    @Test
    void aTanzanianPushCarriesItsChannel() {
      String requestId = create(newOrganisation(), """
          {"description":"Ada ya shule","phoneNumber":"+255682345678","amount":15000,"currencyCode":"TZS",
           "channel":"TZ-AIRTEL-C2B","callbackUrl":"https://merchant.example/tz"}""");

      assertShape(completed(requestId), """
          _id: string
          accountReference: null
          amount: decimal128
          callbackId: string
          callbackUrl: string
          channel: string
          checkoutRequestId: string
          createdAt: date_time
          currency: string
          customerMessage: string
          customerName: null
          description: string
          fingerprint: string
          id: int64
          merchantRequestId: string
          narration: null
          organisationId: string
          phoneNumber: string
          receipt: string
          responseCode: int32
          responseDescription: string
          resultCode: int32
          resultDescription: string
          status: string
          updatedAt: date_time
          """, Outbox.EVENTS, Outbox.PENDING_SINCE);
    }
  }
}
