package dev.lipa.checkout.session;

import static dev.lipa.common.environment.StackEnvironment.SANDBOX;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.ACTION_GRACE;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.CALLBACK_URL;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.CREATED_AT;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.EXPIRES_AT;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.MAX_ATTEMPTS;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.STK_REQUEST_ID;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.restored;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.outbox.OutboxEvent;
import dev.lipa.common.testsupport.PinnedEvents;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The producer {@link CheckoutOutboxEvents} pinned to committed JSON (src/test/resources/events) and checked against
 * docs/asyncapi.yaml: every {@code checkout.*} type (a late payment's included) and the checkout
 * {@code callback.requested}. Only the generated
 * eventId and callbackId are not pinned (they must be UUIDs).
 */
class CheckoutOutboxEventsPinningTests {

  private static final UUID SESSION_ID = UUID.fromString("6e5d4c3b-2a19-4087-b6a5-948372615049");
  private static final String CALLBACK_ID = "/data/callbackId";
  private final CheckoutOutboxEvents outbox = new CheckoutOutboxEvents(PlatformJson.builder().build(), SANDBOX);

  private static CheckoutSession aNewSession(String amount, String currency) {
    return CheckoutSession.create(new CheckoutSession.Details(SESSION_ID,
        OrganisationId.of("0b8c5a55-0b0b-4f0e-8f5e-1c2d3e4f5a6b"), "cs_" + "a".repeat(32), new BigDecimal(amount),
        currency, "Order 42: two mugs", "https://shop.example/ok", "https://shop.example/cancel",
        List.of(PaymentMethod.CARD, PaymentMethod.MPESA_STK), "ORD-42", "jane@example.com", "+254712345678", null,
        CALLBACK_URL, "device-1", CREATED_AT, EXPIRES_AT));
  }

  private static CheckoutSession aPendingSession() {
    return restored(aNewSession("1250.50", "KES"));
  }

  private List<OutboxEvent> recordsOf(CheckoutSession session) {
    List<OutboxEvent> records = outbox.toOutbox(session, session.events());
    assertThat(records).extracting(OutboxEvent::key).containsOnly(SESSION_ID.toString());
    return records;
  }

  private static void assertCheckout(OutboxEvent record, String file) {
    assertThat(record.topic()).isEqualTo(Topics.CHECKOUT);
    PinnedEvents.assertPinned(Topics.CHECKOUT, record.payload(), file);
  }

  private static void assertCallback(OutboxEvent record, String file) {
    assertThat(record.topic()).isEqualTo(Topics.CALLBACKS);
    PinnedEvents.assertPinned(Topics.CALLBACKS, record.payload(), file, CALLBACK_ID);
  }

  @Test
  void checkoutCreated() {
    List<OutboxEvent> records = recordsOf(aNewSession("1500", "KSH"));

    assertThat(records).hasSize(1);
    assertCheckout(records.getFirst(), "events/checkout.created.v1.json");
  }

  @Test
  void checkoutProcessingByCard() {
    CheckoutSession session = aPendingSession();
    session.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, CREATED_AT.plusSeconds(60), MAX_ATTEMPTS);

    assertCheckout(recordsOf(session).getFirst(), "events/checkout.processing.v1.json");
  }

  @Test
  void checkoutRequiresActionForAnMpesaPrompt() {
    CheckoutSession session = aPendingSession();
    session.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678", CREATED_AT.plusSeconds(60),
        MAX_ATTEMPTS);
    session = restored(session);
    session.requireAction(1, STK_REQUEST_ID, CREATED_AT.plusSeconds(61));

    assertCheckout(recordsOf(session).getFirst(), "events/checkout.requires_action.v1.json");
  }

  @Test
  void checkoutAttemptFailedWithAttemptsLeft() {
    CheckoutSession session = aPendingSession();
    session.startAttempt(PaymentMethod.CARD, "VISA", "0002", null, CREATED_AT.plusSeconds(60), MAX_ATTEMPTS);
    session = restored(session);
    session.failAttempt(1, "Your card was declined.", CREATED_AT.plusSeconds(61), MAX_ATTEMPTS);

    List<OutboxEvent> records = recordsOf(session);
    assertThat(records).hasSize(1);
    assertCheckout(records.getFirst(), "events/checkout.attempt_failed.v1.json");
  }

  @Test
  void checkoutSucceededAndItsCallbackRequest() {
    CheckoutSession session = aPendingSession();
    session.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, CREATED_AT.plusSeconds(60), MAX_ATTEMPTS);
    session = restored(session);
    session.succeed(1, CREATED_AT.plusSeconds(62));

    List<OutboxEvent> records = recordsOf(session);
    assertThat(records).hasSize(2);
    assertCheckout(records.get(0), "events/checkout.succeeded.v1.json");
    assertCallback(records.get(1), "events/callback.requested.checkout.succeeded.v1.json");
  }

  @Test
  void checkoutFailedAfterTheLastAttemptAndItsCallbackRequest() {
    CheckoutSession session = aPendingSession();
    for (int attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      session.startAttempt(PaymentMethod.CARD, "VISA", "0002", null, CREATED_AT.plusSeconds(60L * attempt),
          MAX_ATTEMPTS);
      session.failAttempt(attempt, "Your card was declined.", CREATED_AT.plusSeconds(60L * attempt + 1),
          MAX_ATTEMPTS);
    }
    session.startAttempt(PaymentMethod.CARD, "VISA", "0002", null, CREATED_AT.plusSeconds(600), MAX_ATTEMPTS);
    session = restored(session);
    session.failAttempt(MAX_ATTEMPTS, "Your card was declined.", CREATED_AT.plusSeconds(601), MAX_ATTEMPTS);

    List<OutboxEvent> records = recordsOf(session);
    assertThat(records).hasSize(3);
    assertCheckout(records.get(0), "events/checkout.attempt_failed.last.v1.json");
    assertCheckout(records.get(1), "events/checkout.failed.v1.json");
    assertCallback(records.get(2), "events/callback.requested.checkout.failed.v1.json");
  }

  @Test
  void checkoutLatePaymentAndItsCallbackRequest() {
    CheckoutSession session = aPendingSession();
    session.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678", CREATED_AT.plusSeconds(60),
        MAX_ATTEMPTS);
    session.requireAction(1, STK_REQUEST_ID, CREATED_AT.plusSeconds(61));
    session.expire(EXPIRES_AT.plus(ACTION_GRACE), ACTION_GRACE);
    session = restored(session);
    session.recordLatePayment(1, STK_REQUEST_ID, new BigDecimal("1250.50"), "NLJ7RT61SV",
        EXPIRES_AT.plus(ACTION_GRACE).plusSeconds(42));

    List<OutboxEvent> records = recordsOf(session);
    assertThat(records).hasSize(2);
    assertCheckout(records.get(0), "events/checkout.late_payment.v1.json");
    assertCallback(records.get(1), "events/callback.requested.checkout.late_payment.v1.json");
  }

  @Test
  void checkoutExpiredUnpaidAndItsCallbackRequest() {
    CheckoutSession session = aPendingSession();
    session.expire(EXPIRES_AT, ACTION_GRACE);

    List<OutboxEvent> records = recordsOf(session);
    assertThat(records).hasSize(2);
    assertCheckout(records.get(0), "events/checkout.expired.v1.json");
    assertCallback(records.get(1), "events/callback.requested.checkout.expired.v1.json");
  }
}
