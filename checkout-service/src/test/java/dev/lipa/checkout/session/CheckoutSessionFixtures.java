package dev.lipa.checkout.session;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Checkout sessions built through their real transitions, each handed back as the store would give it back. */
final class CheckoutSessionFixtures {

  static final Instant CREATED_AT = Instant.parse("2026-03-01T09:00:00.123Z");
  static final Duration LIFETIME = Duration.ofMinutes(30);
  static final Instant EXPIRES_AT = CREATED_AT.plus(LIFETIME);
  static final Duration ACTION_GRACE = Duration.ofMinutes(5);
  static final int MAX_ATTEMPTS = 5;
  static final String CALLBACK_URL = "https://merchant.example/hooks/checkout";
  static final OrganisationId ORGANISATION = OrganisationId.of("org-1");
  static final RequestId STK_REQUEST_ID = RequestId.parse("6e1e5a57-1f9e-4d8a-9d77-0c1a3b2f9e10");

  private CheckoutSessionFixtures() {
  }

  static CheckoutSession.Details details(String callbackUrl) {
    return new CheckoutSession.Details(UUID.randomUUID(), ORGANISATION, "cs_" + "a".repeat(32), new BigDecimal("1500"),
        "KES", "Order 42: two mugs", "https://shop.example/ok", "https://shop.example/cancel",
        List.of(PaymentMethod.CARD, PaymentMethod.MPESA_STK), "ORD-42", "jane@example.com", "+254712345678",
        "PAY-42", callbackUrl, "device-1", CREATED_AT, EXPIRES_AT);
  }

  /** A new session, with the merchant's callback URL, holding its created event. */
  static CheckoutSession aNewSession() {
    return CheckoutSession.create(details(CALLBACK_URL));
  }

  /** The same session as the store would give it back: no events recorded yet. */
  static CheckoutSession restored(CheckoutSession session) {
    return CheckoutSession.restore(session.details(), session.version(), session.status(), session.attempts(),
        session.updatedAt(), session.paidAt(), session.latePayments());
  }

  static CheckoutSession aPendingSession() {
    return restored(aNewSession());
  }

  static CheckoutSession aPendingSessionWithoutCallback() {
    return restored(CheckoutSession.create(details(null)));
  }

  /** The customer has started paying by card: attempt 1 is PROCESSING. */
  static CheckoutSession aProcessingCardPayment() {
    return aProcessingCardPayment(aPendingSession());
  }

  static CheckoutSession aProcessingCardPayment(CheckoutSession pending) {
    pending.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, CREATED_AT.plusSeconds(60), MAX_ATTEMPTS);
    return restored(pending);
  }

  /** An M-Pesa prompt is on the customer's phone: attempt 1 REQUIRES_ACTION with collections' requestId. */
  static CheckoutSession anMpesaPromptWithTheCustomer() {
    CheckoutSession session = aPendingSession();
    session.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678", CREATED_AT.plusSeconds(60),
        MAX_ATTEMPTS);
    session.requireAction(1, STK_REQUEST_ID, CREATED_AT.plusSeconds(61));
    return restored(session);
  }

  static CheckoutSession aPaidSession() {
    CheckoutSession session = aProcessingCardPayment();
    session.succeed(1, CREATED_AT.plusSeconds(62));
    return restored(session);
  }

  /** Every allowed attempt was declined. */
  static CheckoutSession aFailedSession() {
    CheckoutSession session = aPendingSession();
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      Instant at = CREATED_AT.plusSeconds(60L * attempt);
      session.startAttempt(PaymentMethod.CARD, "VISA", "0002", null, at, MAX_ATTEMPTS);
      session.failAttempt(attempt, "Your card was declined.", at.plusSeconds(1), MAX_ATTEMPTS);
    }
    return restored(session);
  }

  /** The M-Pesa prompt was still with the customer when the session's lifetime and grace period ran out. */
  static CheckoutSession anExpiredSessionWhosePromptWasWithTheCustomer() {
    CheckoutSession session = anMpesaPromptWithTheCustomer();
    session.expire(EXPIRES_AT.plus(ACTION_GRACE), ACTION_GRACE);
    return restored(session);
  }

  static CheckoutSession anExpiredSession() {
    CheckoutSession session = aPendingSession();
    session.expire(EXPIRES_AT, ACTION_GRACE);
    return restored(session);
  }
}
