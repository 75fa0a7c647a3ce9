package dev.lipa.checkout;

import static dev.lipa.common.testsupport.StoredShape.assertShape;
import static dev.lipa.common.testsupport.StoredShape.stored;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.Filters;
import dev.lipa.common.outbox.Outbox;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Pins the shape (field names and BSON types, as the store holds them) of the checkout sessions this service stores,
 * in the states a session's document goes through. Data written by one release is read by the next: a renamed field,
 * a changed type or a renamed collection must fail here. The outbox's own fields are pinned in common.
 */
class StoredShapesIntegrationTests extends CheckoutIntegrationTest {

  private static final String CARD = "{\"cardNumber\":\"%s\",\"expiry\":\"12/39\",\"cvc\":\"123\"}";

  private BsonDocument session(String id) {
    return stored(database.getCollection("checkout_sessions"), Filters.eq("_id", id));
  }

  private JsonNode created(String org) {
    Map<String, String> headers = new HashMap<>(as(org));
    headers.put("Idempotency-Key", "shape-" + UUID.randomUUID());
    return http().postJson(SESSIONS, cardAndMpesa(), headers).json();
  }

  @Test
  void aNewSessionCreatedWithAnIdempotencyKey() {
    JsonNode session = created(newOrganisation());

    assertShape(session(session.path("id").asString()), """
        _id: string
        amount: decimal128
        attempts: array
        attempts[]: (empty)
        callbackUrl: string
        cancelUrl: string
        checkoutRef: string
        createdAt: date_time
        currency: string
        customerEmail: string
        customerPhone: string
        description: string
        deviceId: null
        expiresAt: date_time
        externalReference: string
        fingerprint: string
        idempotencyRecordKey: string
        organisationId: string
        paidAt: null
        paymentMethods: array
        paymentMethods[]: string
        paymentReference: string
        status: string
        successUrl: string
        updatedAt: date_time
        version: int64
        """, Outbox.EVENTS, Outbox.PENDING_SINCE);
  }

  @Test
  void aSessionPaidByCardAfterADeclinedAttempt() {
    JsonNode session = created(newOrganisation());
    String ref = session.path("checkoutRef").asString();
    page(ref, "/card", CARD.formatted("4000000000000002"));
    page(ref, "/card", CARD.formatted("4242424242424242"));

    assertShape(session(session.path("id").asString()), """
        _id: string
        amount: decimal128
        attempts: array
        attempts[]: document
        attempts[].cardBrand: string
        attempts[].cardLast4: string
        attempts[].createdAt: date_time
        attempts[].method: string
        attempts[].number: int32
        attempts[].phoneNumber: null
        attempts[].reason: null|string
        attempts[].status: string
        attempts[].stkRequestId: null
        attempts[].updatedAt: date_time
        callbackUrl: string
        cancelUrl: string
        checkoutRef: string
        createdAt: date_time
        currency: string
        customerEmail: string
        customerPhone: string
        description: string
        deviceId: null
        expiresAt: date_time
        externalReference: string
        fingerprint: string
        idempotencyRecordKey: string
        organisationId: string
        paidAt: date_time
        paymentMethods: array
        paymentMethods[]: string
        paymentReference: string
        status: string
        successUrl: string
        updatedAt: date_time
        version: int64
        """, Outbox.EVENTS, Outbox.PENDING_SINCE);
  }

  @Test
  void aSessionWaitingForTheCustomersMpesaPrompt() {
    JsonNode session = created(newOrganisation());
    page(session.path("checkoutRef").asString(), "/mpesa", "{\"phoneNumber\":\"0712345678\"}");

    assertShape(session(session.path("id").asString()), """
        _id: string
        amount: decimal128
        attempts: array
        attempts[]: document
        attempts[].cardBrand: null
        attempts[].cardLast4: null
        attempts[].createdAt: date_time
        attempts[].method: string
        attempts[].number: int32
        attempts[].phoneNumber: string
        attempts[].reason: null
        attempts[].status: string
        attempts[].stkRequestId: string
        attempts[].updatedAt: date_time
        callbackUrl: string
        cancelUrl: string
        checkoutRef: string
        createdAt: date_time
        currency: string
        customerEmail: string
        customerPhone: string
        description: string
        deviceId: null
        expiresAt: date_time
        externalReference: string
        fingerprint: string
        idempotencyRecordKey: string
        organisationId: string
        paidAt: null
        paymentMethods: array
        paymentMethods[]: string
        paymentReference: string
        status: string
        successUrl: string
        updatedAt: date_time
        version: int64
        """, Outbox.EVENTS, Outbox.PENDING_SINCE);
  }

  @Test
  void anExpiredSession() {
    String id = created(newOrganisation()).path("id").asString();
    ageOut(id);
    await().atMost(Duration.ofSeconds(10)).until(() -> session(id).getString("status").getValue().equals("EXPIRED"));

    assertShape(session(id), """
        _id: string
        amount: decimal128
        attempts: array
        attempts[]: (empty)
        callbackUrl: string
        cancelUrl: string
        checkoutRef: string
        createdAt: date_time
        currency: string
        customerEmail: string
        customerPhone: string
        description: string
        deviceId: null
        expiresAt: date_time
        externalReference: string
        fingerprint: string
        idempotencyRecordKey: string
        organisationId: string
        paidAt: null
        paymentMethods: array
        paymentMethods[]: string
        paymentReference: string
        status: string
        successUrl: string
        updatedAt: date_time
        version: int64
        """, Outbox.EVENTS, Outbox.PENDING_SINCE);
  }
}
