package dev.lipa.checkout.session;

import static dev.lipa.checkout.session.CheckoutSessionFixtures.ACTION_GRACE;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.CREATED_AT;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.EXPIRES_AT;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.MAX_ATTEMPTS;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.STK_REQUEST_ID;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.aFailedSession;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.aNewSession;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.aPaidSession;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.aPendingSession;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.aPendingSessionWithoutCallback;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.aProcessingCardPayment;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.anExpiredSession;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.anExpiredSessionWhosePromptWasWithTheCustomer;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.anMpesaPromptWithTheCustomer;
import static dev.lipa.checkout.session.CheckoutSessionFixtures.restored;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.checkout.session.PaymentAttempt.Status;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every transition of a checkout session, the legal ones and those its state refuses. */
class CheckoutSessionTests {

  private static final Instant LATER = CREATED_AT.plusSeconds(120);

  /** The transition is refused and leaves the session exactly as it was, without an event. */
  private static void assertRefused(CheckoutSession session, Consumer<CheckoutSession> transition) {
    SessionStatus status = session.status();
    List<PaymentAttempt> attempts = session.attempts();
    Instant updatedAt = session.updatedAt();
    List<CheckoutEvent> events = session.events();
    List<LatePayment> latePayments = session.latePayments();

    assertThatThrownBy(() -> transition.accept(session)).isInstanceOf(IllegalTransitionException.class);

    assertThat(session.latePayments()).isEqualTo(latePayments);
    assertThat(session.status()).isEqualTo(status);
    assertThat(session.attempts()).isEqualTo(attempts);
    assertThat(session.updatedAt()).isEqualTo(updatedAt);
    assertThat(session.events()).isEqualTo(events);
  }

  static Stream<Arguments> finalSessions() {
    return Stream.of(
        Arguments.of(named("SUCCEEDED", (Supplier<CheckoutSession>) CheckoutSessionFixtures::aPaidSession)),
        Arguments.of(named("FAILED", (Supplier<CheckoutSession>) CheckoutSessionFixtures::aFailedSession)),
        Arguments.of(named("EXPIRED", (Supplier<CheckoutSession>) CheckoutSessionFixtures::anExpiredSession)));
  }

  @Nested
  class Create {

    @Test
    void startsPendingWithoutAttemptsAndRecordsTheCreatedEvent() {
      CheckoutSession session = aNewSession();

      assertThat(session.status()).isEqualTo(SessionStatus.PENDING);
      assertThat(session.version()).isZero();
      assertThat(session.attempts()).isEmpty();
      assertThat(session.currentAttempt()).isNull();
      assertThat(session.updatedAt()).isEqualTo(CREATED_AT);
      assertThat(session.paidAt()).isNull();
      assertThat(session.paidWith()).isNull();
      assertThat(session.attemptsLeft(MAX_ATTEMPTS)).isEqualTo(MAX_ATTEMPTS);
      assertThat(session.acceptsAttempts(CREATED_AT, MAX_ATTEMPTS)).isTrue();
      assertThat(session.events()).containsExactly(
          new CheckoutEvent(CheckoutEvent.CREATED, null, null, CREATED_AT));
    }

    @Test
    void aRestoredSessionRecordsNoEventsAndKeepsItsVersion() {
      CheckoutSession paid = aPaidSession();
      CheckoutSession stored = CheckoutSession.restore(paid.details(), 7, paid.status(), paid.attempts(),
          paid.updatedAt(), paid.paidAt(), paid.latePayments());

      assertThat(stored.events()).isEmpty();
      assertThat(stored.version()).isEqualTo(7);
      assertThat(stored.status()).isEqualTo(SessionStatus.SUCCEEDED);
      assertThat(stored.paidWith()).isEqualTo(PaymentMethod.CARD);
    }

    @Test
    void refusesDetailsWithoutIdOrganisationReferenceOrAmount() {
      CheckoutSession.Details d = CheckoutSessionFixtures.details(null);
      assertThatThrownBy(() -> new CheckoutSession.Details(null, d.organisationId(), d.checkoutRef(), d.amount(),
          d.currency(), d.description(), d.successUrl(), d.cancelUrl(), d.paymentMethods(), d.externalReference(),
          d.customerEmail(), d.customerPhone(), d.paymentReference(), null, null, CREATED_AT, EXPIRES_AT))
          .isInstanceOf(NullPointerException.class).hasMessage("id");
      assertThatThrownBy(() -> new CheckoutSession.Details(d.id(), null, d.checkoutRef(), d.amount(),
          d.currency(), d.description(), d.successUrl(), d.cancelUrl(), d.paymentMethods(), d.externalReference(),
          d.customerEmail(), d.customerPhone(), d.paymentReference(), null, null, CREATED_AT, EXPIRES_AT))
          .isInstanceOf(NullPointerException.class).hasMessage("organisationId");
      assertThatThrownBy(() -> new CheckoutSession.Details(d.id(), d.organisationId(), null, d.amount(),
          d.currency(), d.description(), d.successUrl(), d.cancelUrl(), d.paymentMethods(), d.externalReference(),
          d.customerEmail(), d.customerPhone(), d.paymentReference(), null, null, CREATED_AT, EXPIRES_AT))
          .isInstanceOf(NullPointerException.class).hasMessage("checkoutRef");
      assertThatThrownBy(() -> new CheckoutSession.Details(d.id(), d.organisationId(), d.checkoutRef(), null,
          d.currency(), d.description(), d.successUrl(), d.cancelUrl(), d.paymentMethods(), d.externalReference(),
          d.customerEmail(), d.customerPhone(), d.paymentReference(), null, null, CREATED_AT, EXPIRES_AT))
          .isInstanceOf(NullPointerException.class).hasMessage("amount");
    }
  }

  @Nested
  class StartAttempt {

    @Test
    void movesPendingToProcessingWithTheFirstAttemptAndItsEvent() {
      CheckoutSession session = aPendingSession();

      PaymentAttempt attempt = session.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, LATER, MAX_ATTEMPTS);

      PaymentAttempt expected = new PaymentAttempt(1, PaymentMethod.CARD, Status.PROCESSING, "VISA", "4242", null,
          null, null, LATER, LATER);
      assertThat(attempt).isEqualTo(expected);
      assertThat(session.status()).isEqualTo(SessionStatus.PROCESSING);
      assertThat(session.currentAttempt()).isEqualTo(expected);
      assertThat(session.updatedAt()).isEqualTo(LATER);
      assertThat(session.events()).containsExactly(new CheckoutEvent(CheckoutEvent.PROCESSING, expected, null, LATER));
    }

    @Test
    void numbersTheNextAttemptAfterAFailedOne() {
      CheckoutSession session = aProcessingCardPayment();
      session.failAttempt(1, "Your card was declined.", LATER, MAX_ATTEMPTS);

      PaymentAttempt second = session.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678",
          LATER.plusSeconds(1), MAX_ATTEMPTS);

      assertThat(second.number()).isEqualTo(2);
      assertThat(session.attempts()).extracting(PaymentAttempt::status).containsExactly(Status.FAILED,
          Status.PROCESSING);
      assertThat(session.attemptsLeft(MAX_ATTEMPTS)).isEqualTo(MAX_ATTEMPTS - 2);
    }

    @Test
    void refusesAMethodTheSessionDoesNotOffer() {
      CheckoutSession.Details cardOnly = CheckoutSessionFixtures.details(null);
      CheckoutSession session = restored(CheckoutSession.create(new CheckoutSession.Details(cardOnly.id(),
          cardOnly.organisationId(), cardOnly.checkoutRef(), cardOnly.amount(), "USD", cardOnly.description(),
          cardOnly.successUrl(), cardOnly.cancelUrl(), List.of(PaymentMethod.CARD), null, null, null, null, null,
          null, CREATED_AT, EXPIRES_AT)));

      assertRefused(session, s -> s.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678", LATER,
          MAX_ATTEMPTS));
    }

    @Test
    void refusesASecondAttemptWhileOneIsOpen() {
      assertRefused(aProcessingCardPayment(),
          s -> s.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, LATER, MAX_ATTEMPTS));
      assertRefused(anMpesaPromptWithTheCustomer(),
          s -> s.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, LATER, MAX_ATTEMPTS));
    }

    @Test
    void refusesAnAttemptAtTheEndOfTheLifetimeButTakesOneJustBefore() {
      assertThat(aPendingSession().acceptsAttempts(EXPIRES_AT.minusMillis(1), MAX_ATTEMPTS)).isTrue();
      assertRefused(aPendingSession(),
          s -> s.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, EXPIRES_AT, MAX_ATTEMPTS));
    }

    @ParameterizedTest(name = "refuses an attempt on a {0} session")
    @MethodSource("dev.lipa.checkout.session.CheckoutSessionTests#finalSessions")
    void refusesAnAttemptOnAFinishedSession(Supplier<CheckoutSession> finished) {
      assertRefused(finished.get(),
          s -> s.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, LATER, MAX_ATTEMPTS));
    }

    @Test
    void rejectedAttemptsDoNotCountButAreBoundedToThreeTimesTheAllowance() {
      CheckoutSession session = aPendingSession();
      for (int attempt = 1; attempt <= 3 * MAX_ATTEMPTS; attempt++) {
        session.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678", LATER, MAX_ATTEMPTS);
        session.rejectAttempt(attempt, "phoneNumber must be a Kenyan mobile number", LATER);
        assertThat(session.attemptsLeft(MAX_ATTEMPTS)).isEqualTo(MAX_ATTEMPTS);
      }

      assertThat(session.status()).isEqualTo(SessionStatus.PENDING);
      assertThat(session.acceptsAttempts(LATER, MAX_ATTEMPTS)).isFalse();
      assertRefused(session, s -> s.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, LATER, MAX_ATTEMPTS));
    }
  }

  @Nested
  class RequireAction {

    @Test
    void movesProcessingToRequiresCustomerActionAndKeepsTheStkRequestId() {
      CheckoutSession session = restored(aPendingSession());
      session.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678", LATER, MAX_ATTEMPTS);
      CheckoutSession processing = restored(session);

      processing.requireAction(1, STK_REQUEST_ID, LATER.plusSeconds(1));

      PaymentAttempt waiting = processing.currentAttempt();
      assertThat(processing.status()).isEqualTo(SessionStatus.REQUIRES_CUSTOMER_ACTION);
      assertThat(waiting.status()).isEqualTo(Status.REQUIRES_ACTION);
      assertThat(waiting.stkRequestId()).isEqualTo(STK_REQUEST_ID);
      assertThat(waiting.phoneNumber()).isEqualTo("254712345678");
      assertThat(waiting.createdAt()).isEqualTo(LATER);
      assertThat(waiting.updatedAt()).isEqualTo(LATER.plusSeconds(1));
      assertThat(processing.events()).containsExactly(
          new CheckoutEvent(CheckoutEvent.REQUIRES_ACTION, waiting, null, LATER.plusSeconds(1)));
    }

    @Test
    void refusesWithoutAnAttempt() {
      assertRefused(aPendingSession(), s -> s.requireAction(1, STK_REQUEST_ID, LATER));
    }

    @Test
    void refusesAnAttemptNumberThatIsNotTheCurrentOne() {
      assertRefused(aProcessingCardPayment(), s -> s.requireAction(2, STK_REQUEST_ID, LATER));
      assertRefused(aProcessingCardPayment(), s -> s.requireAction(0, STK_REQUEST_ID, LATER));
    }

    @Test
    void refusesTwice() {
      assertRefused(anMpesaPromptWithTheCustomer(), s -> s.requireAction(1, STK_REQUEST_ID, LATER));
    }

    @ParameterizedTest(name = "refuses on a {0} session")
    @MethodSource("dev.lipa.checkout.session.CheckoutSessionTests#finalSessions")
    void refusesOnAFinishedSession(Supplier<CheckoutSession> finished) {
      CheckoutSession session = finished.get();
      int last = session.currentAttempt() == null ? 1 : session.currentAttempt().number();
      assertRefused(session, s -> s.requireAction(last, STK_REQUEST_ID, LATER));
    }
  }

  @Nested
  class Resume {

    @Test
    void movesRequiresCustomerActionBackToProcessingKeepingTheStkRequestId() {
      CheckoutSession session = anMpesaPromptWithTheCustomer();

      session.resume(1, LATER);

      PaymentAttempt attempt = session.currentAttempt();
      assertThat(session.status()).isEqualTo(SessionStatus.PROCESSING);
      assertThat(attempt.status()).isEqualTo(Status.PROCESSING);
      assertThat(attempt.stkRequestId()).isEqualTo(STK_REQUEST_ID);
      assertThat(session.events()).containsExactly(new CheckoutEvent(CheckoutEvent.PROCESSING, attempt, null, LATER));
    }

    @Test
    void refusesWhileTheAttemptIsProcessing() {
      assertRefused(aProcessingCardPayment(), s -> s.resume(1, LATER));
    }

    @Test
    void refusesAnotherAttemptNumber() {
      assertRefused(anMpesaPromptWithTheCustomer(), s -> s.resume(2, LATER));
    }

    @ParameterizedTest(name = "refuses on a {0} session")
    @MethodSource("dev.lipa.checkout.session.CheckoutSessionTests#finalSessions")
    void refusesOnAFinishedSession(Supplier<CheckoutSession> finished) {
      assertRefused(finished.get(), s -> s.resume(1, LATER));
    }
  }

  @Nested
  class Succeed {

    @Test
    void movesProcessingToSucceededWithThePaymentTimeTheEventAndTheCallbackRequest() {
      CheckoutSession session = aProcessingCardPayment();

      session.succeed(1, LATER);

      PaymentAttempt paid = session.currentAttempt();
      assertThat(session.status()).isEqualTo(SessionStatus.SUCCEEDED);
      assertThat(paid.status()).isEqualTo(Status.SUCCEEDED);
      assertThat(session.paidAt()).isEqualTo(LATER);
      assertThat(session.paidWith()).isEqualTo(PaymentMethod.CARD);
      assertThat(session.updatedAt()).isEqualTo(LATER);
      List<CheckoutEvent> events = session.events();
      assertThat(events).extracting(CheckoutEvent::type)
          .containsExactly(CheckoutEvent.SUCCEEDED, CheckoutEvent.CALLBACK_REQUESTED);
      assertThat(events).allSatisfy(e -> {
        assertThat(e.attempt()).isEqualTo(paid);
        assertThat(e.occurredAt()).isEqualTo(LATER);
      });
      assertThat(events.get(0).callbackId()).isNull();
      assertThat(events.get(1).callbackId()).isNotNull();
    }

    @Test
    void requestsNoCallbackWithoutACallbackUrl() {
      CheckoutSession session = aProcessingCardPayment(aPendingSessionWithoutCallback());

      session.succeed(1, LATER);

      assertThat(session.events()).extracting(CheckoutEvent::type).containsExactly(CheckoutEvent.SUCCEEDED);
    }

    @Test
    void anMpesaPaymentSucceedsOnlyOnceTheCustomerActed() {
      CheckoutSession waiting = anMpesaPromptWithTheCustomer();
      assertRefused(waiting, s -> s.succeed(1, LATER));

      waiting.resume(1, LATER);
      waiting.succeed(1, LATER);

      assertThat(waiting.status()).isEqualTo(SessionStatus.SUCCEEDED);
      assertThat(waiting.paidWith()).isEqualTo(PaymentMethod.MPESA_STK);
    }

    @Test
    void refusesADuplicateSuccess() {
      CheckoutSession paid = aPaidSession();
      Instant paidAt = paid.paidAt();

      assertRefused(paid, s -> s.succeed(1, LATER.plusSeconds(60)));
      assertThat(paid.paidAt()).isEqualTo(paidAt);
    }

    @Test
    void refusesALateSuccessOfAnEarlierAttempt() {
      CheckoutSession session = aProcessingCardPayment();
      session.failAttempt(1, "Your card was declined.", LATER, MAX_ATTEMPTS);
      session.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, LATER, MAX_ATTEMPTS);
      CheckoutSession second = restored(session);

      assertRefused(second, s -> s.succeed(1, LATER.plusSeconds(1)));
    }

    @ParameterizedTest(name = "refuses on a {0} session")
    @MethodSource("dev.lipa.checkout.session.CheckoutSessionTests#finalSessions")
    void refusesOnAFinishedSession(Supplier<CheckoutSession> finished) {
      CheckoutSession session = finished.get();
      int last = session.currentAttempt() == null ? 1 : session.currentAttempt().number();
      assertRefused(session, s -> s.succeed(last, LATER));
    }
  }

  @Nested
  class FailAttempt {

    @Test
    void withAttemptsLeftReturnsToPendingSoTheCustomerMayRetry() {
      CheckoutSession session = aProcessingCardPayment();

      session.failAttempt(1, "Your card was declined.", LATER, MAX_ATTEMPTS);

      PaymentAttempt failed = session.currentAttempt();
      assertThat(session.status()).isEqualTo(SessionStatus.PENDING);
      assertThat(failed.status()).isEqualTo(Status.FAILED);
      assertThat(failed.reason()).isEqualTo("Your card was declined.");
      assertThat(session.attemptsLeft(MAX_ATTEMPTS)).isEqualTo(MAX_ATTEMPTS - 1);
      assertThat(session.acceptsAttempts(LATER, MAX_ATTEMPTS)).isTrue();
      assertThat(session.events()).containsExactly(
          new CheckoutEvent(CheckoutEvent.ATTEMPT_FAILED, failed, null, LATER));
    }

    @Test
    void aPromptTheCustomerRefusedFailsFromRequiresCustomerAction() {
      CheckoutSession session = anMpesaPromptWithTheCustomer();

      session.failAttempt(1, "The M-Pesa payment did not go through: Request cancelled by user", LATER,
          MAX_ATTEMPTS);

      assertThat(session.status()).isEqualTo(SessionStatus.PENDING);
      assertThat(session.currentAttempt().stkRequestId()).isEqualTo(STK_REQUEST_ID);
    }

    @Test
    void theLastAllowedAttemptFailsTheSessionWithTheCallbackRequest() {
      CheckoutSession session = aPendingSession();
      for (int attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
        session.startAttempt(PaymentMethod.CARD, "VISA", "0002", null, LATER, MAX_ATTEMPTS);
        session.failAttempt(attempt, "Your card was declined.", LATER, MAX_ATTEMPTS);
      }
      session.startAttempt(PaymentMethod.CARD, "VISA", "0002", null, LATER, MAX_ATTEMPTS);
      CheckoutSession lastTry = restored(session);

      lastTry.failAttempt(MAX_ATTEMPTS, "Your card was declined.", LATER.plusSeconds(1), MAX_ATTEMPTS);

      assertThat(lastTry.status()).isEqualTo(SessionStatus.FAILED);
      assertThat(lastTry.paidAt()).isNull();
      assertThat(lastTry.attemptsLeft(MAX_ATTEMPTS)).isZero();
      assertThat(lastTry.events()).extracting(CheckoutEvent::type).containsExactly(CheckoutEvent.ATTEMPT_FAILED,
          CheckoutEvent.FAILED, CheckoutEvent.CALLBACK_REQUESTED);
      assertThat(lastTry.events()).extracting(CheckoutEvent::attempt).containsOnly(lastTry.currentAttempt());
    }

    @Test
    void refusesWithoutAnOpenAttempt() {
      assertRefused(aPendingSession(), s -> s.failAttempt(1, "declined", LATER, MAX_ATTEMPTS));
      CheckoutSession retry = aProcessingCardPayment();
      retry.failAttempt(1, "declined", LATER, MAX_ATTEMPTS);
      assertRefused(restored(retry), s -> s.failAttempt(1, "declined again", LATER, MAX_ATTEMPTS));
    }

    @Test
    void refusesAnotherAttemptNumber() {
      assertRefused(aProcessingCardPayment(), s -> s.failAttempt(2, "declined", LATER, MAX_ATTEMPTS));
    }

    @ParameterizedTest(name = "refuses a late failure on a {0} session")
    @MethodSource("dev.lipa.checkout.session.CheckoutSessionTests#finalSessions")
    void refusesALateFailureOnAFinishedSession(Supplier<CheckoutSession> finished) {
      CheckoutSession session = finished.get();
      int last = session.currentAttempt() == null ? 1 : session.currentAttempt().number();
      assertRefused(session, s -> s.failAttempt(last, "Request cancelled by user", LATER, MAX_ATTEMPTS));
    }
  }

  @Nested
  class RejectAttempt {

    @Test
    void returnsToPendingWithoutCountingTheAttempt() {
      CheckoutSession session = aProcessingCardPayment();

      session.rejectAttempt(1, "M-Pesa is not available right now", LATER);

      PaymentAttempt rejected = session.currentAttempt();
      assertThat(session.status()).isEqualTo(SessionStatus.PENDING);
      assertThat(rejected.status()).isEqualTo(Status.REJECTED);
      assertThat(rejected.reason()).isEqualTo("M-Pesa is not available right now");
      assertThat(session.attemptsLeft(MAX_ATTEMPTS)).isEqualTo(MAX_ATTEMPTS);
      assertThat(session.events()).containsExactly(
          new CheckoutEvent(CheckoutEvent.ATTEMPT_FAILED, rejected, null, LATER));
    }

    @Test
    void refusesOnceThePromptIsWithTheCustomer() {
      assertRefused(anMpesaPromptWithTheCustomer(), s -> s.rejectAttempt(1, "too late", LATER));
    }

    @Test
    void refusesWithoutAnAttemptOrForAnotherOne() {
      assertRefused(aPendingSession(), s -> s.rejectAttempt(1, "refused", LATER));
      assertRefused(aProcessingCardPayment(), s -> s.rejectAttempt(2, "refused", LATER));
    }

    @ParameterizedTest(name = "refuses on a {0} session")
    @MethodSource("dev.lipa.checkout.session.CheckoutSessionTests#finalSessions")
    void refusesOnAFinishedSession(Supplier<CheckoutSession> finished) {
      CheckoutSession session = finished.get();
      int last = session.currentAttempt() == null ? 1 : session.currentAttempt().number();
      assertRefused(session, s -> s.rejectAttempt(last, "refused", LATER));
    }
  }

  @Nested
  class Expire {

    @Test
    void aPendingSessionExpiresAtTheEndOfItsLifetimeWithTheCallbackRequest() {
      CheckoutSession session = aPendingSession();
      assertThat(session.isDueToExpire(EXPIRES_AT.minusMillis(1), ACTION_GRACE)).isFalse();
      assertThat(session.isDueToExpire(EXPIRES_AT, ACTION_GRACE)).isTrue();

      session.expire(EXPIRES_AT, ACTION_GRACE);

      assertThat(session.status()).isEqualTo(SessionStatus.EXPIRED);
      assertThat(session.updatedAt()).isEqualTo(EXPIRES_AT);
      assertThat(session.paidAt()).isNull();
      assertThat(session.events()).extracting(CheckoutEvent::type)
          .containsExactly(CheckoutEvent.EXPIRED, CheckoutEvent.CALLBACK_REQUESTED);
      assertThat(session.events()).extracting(CheckoutEvent::attempt).containsOnlyNulls();
    }

    @Test
    void refusesBeforeTheEndOfTheLifetime() {
      assertRefused(aPendingSession(), s -> s.expire(EXPIRES_AT.minusMillis(1), ACTION_GRACE));
    }

    @Test
    void anAttemptWithTheCustomerHasTheGracePeriodThenFailsWithTheSession() {
      CheckoutSession waiting = anMpesaPromptWithTheCustomer();
      assertRefused(waiting, s -> s.expire(EXPIRES_AT, ACTION_GRACE));
      assertRefused(waiting, s -> s.expire(EXPIRES_AT.plus(ACTION_GRACE).minusMillis(1), ACTION_GRACE));

      Instant end = EXPIRES_AT.plus(ACTION_GRACE);
      waiting.expire(end, ACTION_GRACE);

      PaymentAttempt failed = waiting.currentAttempt();
      assertThat(waiting.status()).isEqualTo(SessionStatus.EXPIRED);
      assertThat(failed.status()).isEqualTo(Status.FAILED);
      assertThat(failed.reason()).isEqualTo("the checkout session expired");
      assertThat(waiting.events()).extracting(CheckoutEvent::attempt).containsOnly(failed);
    }

    @Test
    void aProcessingAttemptHasTheGracePeriodToo() {
      CheckoutSession processing = aProcessingCardPayment();
      assertThat(processing.isDueToExpire(EXPIRES_AT, ACTION_GRACE)).isFalse();
      assertThat(processing.isDueToExpire(EXPIRES_AT.plus(ACTION_GRACE), ACTION_GRACE)).isTrue();
    }

    @Test
    void keepsAnEarlierFailedAttemptAsItWas() {
      CheckoutSession session = aProcessingCardPayment();
      session.failAttempt(1, "Your card was declined.", LATER, MAX_ATTEMPTS);
      CheckoutSession pending = restored(session);

      pending.expire(EXPIRES_AT, ACTION_GRACE);

      assertThat(pending.currentAttempt().reason()).isEqualTo("Your card was declined.");
      assertThat(pending.currentAttempt().updatedAt()).isEqualTo(LATER);
    }

    @ParameterizedTest(name = "a {0} session never expires")
    @MethodSource("dev.lipa.checkout.session.CheckoutSessionTests#finalSessions")
    void aFinishedSessionNeverExpires(Supplier<CheckoutSession> finished) {
      CheckoutSession session = finished.get();
      Instant muchLater = EXPIRES_AT.plus(ACTION_GRACE).plusSeconds(86_400);
      assertThat(session.isDueToExpire(muchLater, ACTION_GRACE)).isFalse();
      assertRefused(session, s -> s.expire(muchLater, ACTION_GRACE));
    }
  }

  @Nested
  class RecordLatePayment {

    private final Instant paidLate = EXPIRES_AT.plus(ACTION_GRACE).plusSeconds(30);

    @Test
    void aPaymentAfterTheSessionExpiredIsRecordedWithItsEventAndCallbackAndChangesNoStatus() {
      CheckoutSession expired = anExpiredSessionWhosePromptWasWithTheCustomer();
      PaymentAttempt attempt = expired.currentAttempt();

      boolean recorded = expired.recordLatePayment(1, STK_REQUEST_ID, new BigDecimal("1500"), "NLJ7RT61SV", paidLate);

      LatePayment late = new LatePayment(1, STK_REQUEST_ID, new BigDecimal("1500"), "NLJ7RT61SV", paidLate);
      assertThat(recorded).isTrue();
      assertThat(expired.status()).isEqualTo(SessionStatus.EXPIRED);
      assertThat(expired.attempts()).containsExactly(attempt);
      assertThat(expired.paidAt()).isNull();
      assertThat(expired.latePayments()).containsExactly(late);
      assertThat(expired.updatedAt()).isEqualTo(paidLate);
      assertThat(expired.events()).extracting(CheckoutEvent::type)
          .containsExactly(CheckoutEvent.LATE_PAYMENT, CheckoutEvent.CALLBACK_REQUESTED);
      assertThat(expired.events()).extracting(CheckoutEvent::latePayment).containsOnly(late);
      assertThat(expired.events()).extracting(CheckoutEvent::attempt).containsOnly(attempt);
    }

    @Test
    void theSamePushIsRecordedOnce() {
      CheckoutSession expired = anExpiredSessionWhosePromptWasWithTheCustomer();
      expired.recordLatePayment(1, STK_REQUEST_ID, new BigDecimal("1500"), "NLJ7RT61SV", paidLate);
      CheckoutSession stored = restored(expired);

      boolean again = stored.recordLatePayment(1, STK_REQUEST_ID, new BigDecimal("1500"), "NLJ7RT61SV",
          paidLate.plusSeconds(5));

      assertThat(again).isFalse();
      assertThat(stored.events()).isEmpty();
      assertThat(stored.latePayments()).hasSize(1);
    }

    @Test
    void aPaymentConfirmedWithoutAReceiptIsRecordedToo() {
      CheckoutSession expired = anExpiredSessionWhosePromptWasWithTheCustomer();

      expired.recordLatePayment(1, STK_REQUEST_ID, new BigDecimal("1500"), null, paidLate);

      assertThat(expired.latePayments()).singleElement().extracting(LatePayment::receipt).isNull();
    }

    @Test
    void refusesAnotherPushThanTheAttemptStartedAnOpenAttemptACardAttemptAndTheSessionsOwnPayment() {
      assertRefused(anExpiredSessionWhosePromptWasWithTheCustomer(),
          s -> s.recordLatePayment(1, RequestId.random(), BigDecimal.TEN, "X", paidLate));
      assertRefused(anExpiredSessionWhosePromptWasWithTheCustomer(),
          s -> s.recordLatePayment(2, STK_REQUEST_ID, BigDecimal.TEN, "X", paidLate));
      assertRefused(anMpesaPromptWithTheCustomer(),
          s -> s.recordLatePayment(1, STK_REQUEST_ID, BigDecimal.TEN, "X", paidLate));
      assertRefused(aPaidSession(), s -> s.recordLatePayment(1, STK_REQUEST_ID, BigDecimal.TEN, "X", paidLate));
      CheckoutSession paidByMpesa = anMpesaPromptWithTheCustomer();
      paidByMpesa.resume(1, LATER);
      paidByMpesa.succeed(1, LATER);
      assertRefused(restored(paidByMpesa),
          s -> s.recordLatePayment(1, STK_REQUEST_ID, BigDecimal.TEN, "X", paidLate));
    }

    @Test
    void aPushOfAnAttemptClosedWithoutItsResultIsALatePaymentEvenWhileTheSessionWaitsForAnother() {
      CheckoutSession session = aPendingSession();
      session.startAttempt(PaymentMethod.MPESA_STK, null, null, "254712345678", CREATED_AT.plusSeconds(60),
          MAX_ATTEMPTS);
      // collections-service did not answer in time: the attempt was refused, yet the push had started
      session.rejectAttempt(1, "M-Pesa is not available right now.", CREATED_AT.plusSeconds(70));
      session.startAttempt(PaymentMethod.CARD, "VISA", "4242", null, CREATED_AT.plusSeconds(80), MAX_ATTEMPTS);
      CheckoutSession waiting = restored(session);

      waiting.recordLatePayment(1, STK_REQUEST_ID, new BigDecimal("1500"), "NLJ7RT61SV", LATER);

      assertThat(waiting.status()).isEqualTo(SessionStatus.PROCESSING);
      assertThat(waiting.currentAttempt().number()).isEqualTo(2);
      assertThat(waiting.latePayments()).hasSize(1);
    }
  }

  @Test
  void theFinishedFixturesAreWhatTheyClaim() {
    assertThat(aPaidSession().status()).isEqualTo(SessionStatus.SUCCEEDED);
    assertThat(aFailedSession().status()).isEqualTo(SessionStatus.FAILED);
    assertThat(aFailedSession().attempts()).hasSize(MAX_ATTEMPTS);
    assertThat(anExpiredSession().status()).isEqualTo(SessionStatus.EXPIRED);
  }
}
