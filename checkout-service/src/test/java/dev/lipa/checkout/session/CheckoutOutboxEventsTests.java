package dev.lipa.checkout.session;

import static dev.lipa.common.environment.StackEnvironment.SANDBOX;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.ACTION_GRACE;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.CREATED_AT;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.EXPIRES_AT;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.MAX_ATTEMPTS;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.aNewSession;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.aPendingSession;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.aProcessingCardPayment;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.anMpesaPromptWithTheCustomer;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.restored;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.outbox.OutboxEvent;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pins the exact JSON of the records checkout produces: {@code checkout.*} on payments.checkout.v1 (payouts credits
 * card payments from {@code checkout.succeeded}) and the merchant's {@code callback.requested} on
 * payments.callbacks.v1. Only generated values (eventId, the session's id, the callbackId) are filled in by name.
 */
class CheckoutOutboxEventsTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();
  private static final Instant LATER = CREATED_AT.plusSeconds(120);
  private final CheckoutOutboxEvents outbox = new CheckoutOutboxEvents(JSON, SANDBOX);

  private static void assertPinned(CheckoutSession session, List<OutboxEvent> records, String... pinned) {
    assertThat(records).hasSize(pinned.length);
    List<CheckoutEvent> events = session.events();
    for (int i = 0; i < pinned.length; i++) {
      OutboxEvent record = records.get(i);
      String expected = pinned[i].replace("<eventId>", record.eventId())
          .replace("<sessionId>", session.id().toString())
          .replace("<callbackId>", String.valueOf(events.get(i).callbackId()));
      assertThat(record.key()).isEqualTo(session.id().toString());
      assertThat(record.topic()).isEqualTo(events.get(i).type().equals(CheckoutEvent.CALLBACK_REQUESTED)
          ? Topics.CALLBACKS : Topics.CHECKOUT);
      assertThat(record.payload()).isEqualTo(expected);
    }
  }

  private List<OutboxEvent> recordsOf(CheckoutSession session) {
    return outbox.toOutbox(session, session.events());
  }

  @Test
  void created() {
    CheckoutSession session = aNewSession();

    assertPinned(session, recordsOf(session), """
        {"eventId":"<eventId>","type":"checkout.created","version":1,"occurredAt":"2026-03-01T09:00:00.123Z",\
        "organisationId":"org-1","data":{"checkoutSessionId":"<sessionId>",\
        "checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","status":"PENDING","amount":1500,"currency":"KES",\
        "externalReference":"ORD-42","paymentReference":"PAY-42"}}""");
  }

  @Test
  void processingACardAttempt() {
    CheckoutSession session = aPendingSession();
    session.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, LATER, MAX_ATTEMPTS);

    assertPinned(session, recordsOf(session), """
        {"eventId":"<eventId>","type":"checkout.processing","version":1,\
        "occurredAt":"2026-03-01T09:02:00.123Z","organisationId":"org-1",\
        "data":{"checkoutSessionId":"<sessionId>","checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",\
        "status":"PROCESSING","amount":1500,"currency":"KES","externalReference":"ORD-42",\
        "paymentReference":"PAY-42","attempt":{"number":1,"paymentMethod":"CARD","status":"PROCESSING",\
        "cardBrand":"VISA","cardLast4":"4242","stkRequestId":null,"reason":null}}}""");
  }

  @Test
  void requiresActionOfAnMpesaPromptThenProcessingAgain() {
    CheckoutSession session = aPendingSession();
    session.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678", LATER, MAX_ATTEMPTS);
    session.requireAction(1, CheckoutSessionFixtures.STK_REQUEST_ID, LATER);
    session.resume(1, LATER.plusSeconds(5));

    assertPinned(session, recordsOf(session), """
        {"eventId":"<eventId>","type":"checkout.processing","version":1,\
        "occurredAt":"2026-03-01T09:02:00.123Z","organisationId":"org-1",\
        "data":{"checkoutSessionId":"<sessionId>","checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",\
        "status":"PROCESSING","amount":1500,"currency":"KES","externalReference":"ORD-42",\
        "paymentReference":"PAY-42","attempt":{"number":1,"paymentMethod":"MPESA_STK","status":"PROCESSING",\
        "cardBrand":null,"cardLast4":null,"stkRequestId":null,"reason":null}}}""", """
        {"eventId":"<eventId>","type":"checkout.requires_action","version":1,\
        "occurredAt":"2026-03-01T09:02:00.123Z","organisationId":"org-1",\
        "data":{"checkoutSessionId":"<sessionId>","checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",\
        "status":"REQUIRES_CUSTOMER_ACTION","amount":1500,"currency":"KES","externalReference":"ORD-42",\
        "paymentReference":"PAY-42","attempt":{"number":1,"paymentMethod":"MPESA_STK",\
        "status":"REQUIRES_ACTION","cardBrand":null,"cardLast4":null,\
        "stkRequestId":"6e1e5a57-1f9e-4d8a-9d77-0c1a3b2f9e10","reason":null}}}""", """
        {"eventId":"<eventId>","type":"checkout.processing","version":1,\
        "occurredAt":"2026-03-01T09:02:05.123Z","organisationId":"org-1",\
        "data":{"checkoutSessionId":"<sessionId>","checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",\
        "status":"PROCESSING","amount":1500,"currency":"KES","externalReference":"ORD-42",\
        "paymentReference":"PAY-42","attempt":{"number":1,"paymentMethod":"MPESA_STK","status":"PROCESSING",\
        "cardBrand":null,"cardLast4":null,"stkRequestId":"6e1e5a57-1f9e-4d8a-9d77-0c1a3b2f9e10",\
        "reason":null}}}""");
  }

  @Test
  void succeededAndItsCallback() {
    CheckoutSession session = aProcessingCardPayment();
    session.succeed(1, LATER);

    assertPinned(session, recordsOf(session), """
        {"eventId":"<eventId>","type":"checkout.succeeded","version":1,"occurredAt":"2026-03-01T09:02:00.123Z",\
        "organisationId":"org-1","data":{"checkoutSessionId":"<sessionId>",\
        "checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","status":"SUCCEEDED","amount":1500,\
        "currency":"KES","externalReference":"ORD-42","paymentReference":"PAY-42","attempt":{"number":1,\
        "paymentMethod":"CARD","status":"SUCCEEDED","cardBrand":"VISA","cardLast4":"4242","stkRequestId":null,\
        "reason":null}}}""", """
        {"eventId":"<eventId>","type":"callback.requested","version":1,"occurredAt":"2026-03-01T09:02:00.123Z",\
        "organisationId":"org-1","data":{"callbackId":"<callbackId>","requestId":"<sessionId>",\
        "url":"https://merchant.example/hooks/checkout","kind":"checkout","body":{"id":"<sessionId>",\
        "checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","status":"SUCCEEDED","amount":1500,\
        "currency":"KES","externalReference":"ORD-42","paymentReference":"PAY-42","paymentMethod":"CARD",\
        "paidAt":"2026-03-01T09:02:00.123Z","occurredAt":"2026-03-01T09:02:00.123Z"}}}""");
  }

  @Test
  void anAttemptFailedWithAttemptsLeftAndOneRejected() {
    CheckoutSession session = anMpesaPromptWithTheCustomer();
    session.failAttempt(1, "The M-Pesa payment did not go through: Request cancelled by user", LATER,
        MAX_ATTEMPTS);
    session.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678", LATER, MAX_ATTEMPTS);
    session.rejectAttempt(2, "phoneNumber must be a Kenyan mobile number", LATER);

    assertPinned(session, recordsOf(session), """
        {"eventId":"<eventId>","type":"checkout.attempt_failed","version":1,\
        "occurredAt":"2026-03-01T09:02:00.123Z","organisationId":"org-1",\
        "data":{"checkoutSessionId":"<sessionId>","checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",\
        "status":"PENDING","amount":1500,"currency":"KES","externalReference":"ORD-42",\
        "paymentReference":"PAY-42","attempt":{"number":1,"paymentMethod":"MPESA_STK","status":"FAILED",\
        "cardBrand":null,"cardLast4":null,"stkRequestId":"6e1e5a57-1f9e-4d8a-9d77-0c1a3b2f9e10",\
        "reason":"The M-Pesa payment did not go through: Request cancelled by user"}}}""", """
        {"eventId":"<eventId>","type":"checkout.processing","version":1,\
        "occurredAt":"2026-03-01T09:02:00.123Z","organisationId":"org-1",\
        "data":{"checkoutSessionId":"<sessionId>","checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",\
        "status":"PROCESSING","amount":1500,"currency":"KES","externalReference":"ORD-42",\
        "paymentReference":"PAY-42","attempt":{"number":2,"paymentMethod":"MPESA_STK","status":"PROCESSING",\
        "cardBrand":null,"cardLast4":null,"stkRequestId":null,"reason":null}}}""", """
        {"eventId":"<eventId>","type":"checkout.attempt_failed","version":1,\
        "occurredAt":"2026-03-01T09:02:00.123Z","organisationId":"org-1",\
        "data":{"checkoutSessionId":"<sessionId>","checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",\
        "status":"PENDING","amount":1500,"currency":"KES","externalReference":"ORD-42",\
        "paymentReference":"PAY-42","attempt":{"number":2,"paymentMethod":"MPESA_STK","status":"REJECTED",\
        "cardBrand":null,"cardLast4":null,"stkRequestId":null,\
        "reason":"phoneNumber must be a Kenyan mobile number"}}}""");
  }

  @Test
  void failedAfterTheLastAllowedAttemptAndItsCallback() {
    CheckoutSession session = aPendingSession();
    for (int attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      session.startAttempt(PaymentMethod.CARD, "VISA", "0002", null, LATER, MAX_ATTEMPTS);
      session.failAttempt(attempt, "Your card was declined.", LATER, MAX_ATTEMPTS);
    }
    session.startAttempt(PaymentMethod.CARD, "VISA", "0002", null, LATER, MAX_ATTEMPTS);
    CheckoutSession lastTry = restored(session);
    lastTry.failAttempt(MAX_ATTEMPTS, "Your card was declined.", LATER.plusSeconds(1), MAX_ATTEMPTS);

    assertPinned(lastTry, recordsOf(lastTry), """
        {"eventId":"<eventId>","type":"checkout.attempt_failed","version":1,\
        "occurredAt":"2026-03-01T09:02:01.123Z","organisationId":"org-1",\
        "data":{"checkoutSessionId":"<sessionId>","checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",\
        "status":"FAILED","amount":1500,"currency":"KES","externalReference":"ORD-42",\
        "paymentReference":"PAY-42","attempt":{"number":5,"paymentMethod":"CARD","status":"FAILED",\
        "cardBrand":"VISA","cardLast4":"0002","stkRequestId":null,"reason":"Your card was declined."}}}""", """
        {"eventId":"<eventId>","type":"checkout.failed","version":1,"occurredAt":"2026-03-01T09:02:01.123Z",\
        "organisationId":"org-1","data":{"checkoutSessionId":"<sessionId>",\
        "checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","status":"FAILED","amount":1500,"currency":"KES",\
        "externalReference":"ORD-42","paymentReference":"PAY-42","attempt":{"number":5,"paymentMethod":"CARD",\
        "status":"FAILED","cardBrand":"VISA","cardLast4":"0002","stkRequestId":null,\
        "reason":"Your card was declined."}}}""", """
        {"eventId":"<eventId>","type":"callback.requested","version":1,"occurredAt":"2026-03-01T09:02:01.123Z",\
        "organisationId":"org-1","data":{"callbackId":"<callbackId>","requestId":"<sessionId>",\
        "url":"https://merchant.example/hooks/checkout","kind":"checkout","body":{"id":"<sessionId>",\
        "checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","status":"FAILED","amount":1500,"currency":"KES",\
        "externalReference":"ORD-42","paymentReference":"PAY-42","paymentMethod":"CARD","paidAt":null,\
        "occurredAt":"2026-03-01T09:02:01.123Z"}}}""");
  }

  @Test
  void expiredAndItsCallback() {
    CheckoutSession session = aPendingSession();
    session.expire(EXPIRES_AT, ACTION_GRACE);

    assertPinned(session, recordsOf(session), """
        {"eventId":"<eventId>","type":"checkout.expired","version":1,"occurredAt":"2026-03-01T09:30:00.123Z",\
        "organisationId":"org-1","data":{"checkoutSessionId":"<sessionId>",\
        "checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","status":"EXPIRED","amount":1500,"currency":"KES",\
        "externalReference":"ORD-42","paymentReference":"PAY-42"}}""", """
        {"eventId":"<eventId>","type":"callback.requested","version":1,"occurredAt":"2026-03-01T09:30:00.123Z",\
        "organisationId":"org-1","data":{"callbackId":"<callbackId>","requestId":"<sessionId>",\
        "url":"https://merchant.example/hooks/checkout","kind":"checkout","body":{"id":"<sessionId>",\
        "checkoutRef":"cs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","status":"EXPIRED","amount":1500,"currency":"KES",\
        "externalReference":"ORD-42","paymentReference":"PAY-42","paymentMethod":null,"paidAt":null,\
        "occurredAt":"2026-03-01T09:30:00.123Z"}}}""");
  }
}
