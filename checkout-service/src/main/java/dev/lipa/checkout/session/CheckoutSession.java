package dev.lipa.checkout.session;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A hosted checkout session. Created PENDING; each payment attempt moves it PENDING → PROCESSING (→
 * REQUIRES_CUSTOMER_ACTION → PROCESSING) → SUCCEEDED, or back to PENDING when the attempt fails and attempts remain,
 * or FAILED when the last allowed attempt fails. EXPIRED when its lifetime ends first. SUCCEEDED, FAILED and EXPIRED
 * are final and request the merchant's callback. A payment that arrives for an attempt the session no longer waits for
 * changes no status: it is recorded as a {@link LatePayment}, with its own event and callback. Each transition records
 * its events; the store writes state and events in one compare-and-set on {@link #version()}.
 */
public final class CheckoutSession {

  /** What never changes after creation. */
  public record Details(UUID id, OrganisationId organisationId, String checkoutRef, BigDecimal amount, String currency,
      String description, String successUrl, String cancelUrl, List<PaymentMethod> paymentMethods,
      String externalReference, String customerEmail, String customerPhone, String paymentReference,
      String callbackUrl, String deviceId, Instant createdAt, Instant expiresAt) {

    public Details {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(organisationId, "organisationId");
      Objects.requireNonNull(checkoutRef, "checkoutRef");
      Objects.requireNonNull(amount, "amount");
      paymentMethods = List.copyOf(paymentMethods);
    }

    public CheckoutCurrency checkoutCurrency() {
      return CheckoutCurrency.of(currency).orElseThrow();
    }
  }

  private final Details details;
  private final long version;
  private SessionStatus status;
  private final List<PaymentAttempt> attempts;
  private Instant updatedAt;
  private Instant paidAt;
  private final List<LatePayment> latePayments;
  private final List<CheckoutEvent> events = new ArrayList<>();

  private CheckoutSession(Details details, long version, SessionStatus status, List<PaymentAttempt> attempts,
      Instant updatedAt, Instant paidAt, List<LatePayment> latePayments) {
    this.details = details;
    this.version = version;
    this.status = status;
    this.attempts = new ArrayList<>(attempts);
    this.updatedAt = updatedAt;
    this.paidAt = paidAt;
    this.latePayments = new ArrayList<>(latePayments);
  }

  public static CheckoutSession create(Details details) {
    CheckoutSession session = new CheckoutSession(details, 0, SessionStatus.PENDING, List.of(), details.createdAt(),
        null, List.of());
    session.events.add(new CheckoutEvent(CheckoutEvent.CREATED, null, null, details.createdAt()));
    return session;
  }

  public static CheckoutSession restore(Details details, long version, SessionStatus status,
      List<PaymentAttempt> attempts, Instant updatedAt, Instant paidAt, List<LatePayment> latePayments) {
    return new CheckoutSession(details, version, status, attempts, updatedAt, paidAt, latePayments);
  }

  /** Whether new attempts are allowed now: PENDING, inside its lifetime, with attempts left. */
  public boolean acceptsAttempts(Instant now, int maxAttempts) {
    // refused attempts (a mistyped phone number) do not count, but are bounded too: a session is no free oracle
    return status == SessionStatus.PENDING && now.isBefore(details.expiresAt()) && attemptsLeft(maxAttempts) > 0
        && attempts.size() < maxAttempts * 3;
  }

  public int attemptsLeft(int maxAttempts) {
    long counted = attempts.stream().filter(a -> a.status() != PaymentAttempt.Status.REJECTED).count();
    return (int) Math.max(0, maxAttempts - counted);
  }

  /**
   * The customer starts paying: PENDING to PROCESSING with a new attempt.
   *
   * @return the new attempt
   */
  public PaymentAttempt startAttempt(PaymentMethod method, String cardBrand, String cardLast4, String phoneNumber,
      Instant now, int maxAttempts) {
    if (!details.paymentMethods().contains(method)) {
      throw new IllegalTransitionException("payment method " + method + " is not offered by this session");
    }
    if (!acceptsAttempts(now, maxAttempts)) {
      throw new IllegalTransitionException("session " + details.id() + " accepts no attempt now (" + status + ")");
    }
    PaymentAttempt attempt = new PaymentAttempt(attempts.size() + 1, method, PaymentAttempt.Status.PROCESSING,
        cardBrand, cardLast4, phoneNumber, null, null, now, now);
    attempts.add(attempt);
    move(SessionStatus.PROCESSING, now);
    events.add(new CheckoutEvent(CheckoutEvent.PROCESSING, attempt, null, now));
    return attempt;
  }

  /** The attempt waits for the customer (card authentication, an STK prompt): PROCESSING to REQUIRES_CUSTOMER_ACTION. */
  public void requireAction(int attemptNumber, RequestId stkRequestId, Instant now) {
    PaymentAttempt attempt = open(attemptNumber, SessionStatus.PROCESSING);
    PaymentAttempt changed = replace(attempt.with(PaymentAttempt.Status.REQUIRES_ACTION, stkRequestId, null, now));
    move(SessionStatus.REQUIRES_CUSTOMER_ACTION, now);
    events.add(new CheckoutEvent(CheckoutEvent.REQUIRES_ACTION, changed, null, now));
  }

  /** The customer acted (authenticated, approved the prompt): REQUIRES_CUSTOMER_ACTION to PROCESSING. */
  public void resume(int attemptNumber, Instant now) {
    PaymentAttempt attempt = open(attemptNumber, SessionStatus.REQUIRES_CUSTOMER_ACTION);
    PaymentAttempt changed = replace(attempt.with(PaymentAttempt.Status.PROCESSING, null, null, now));
    move(SessionStatus.PROCESSING, now);
    events.add(new CheckoutEvent(CheckoutEvent.PROCESSING, changed, null, now));
  }

  /** The attempt paid: PROCESSING to SUCCEEDED (final), with the merchant's callback. */
  public void succeed(int attemptNumber, Instant now) {
    PaymentAttempt attempt = open(attemptNumber, SessionStatus.PROCESSING);
    PaymentAttempt changed = replace(attempt.with(PaymentAttempt.Status.SUCCEEDED, null, null, now));
    paidAt = now;
    move(SessionStatus.SUCCEEDED, now);
    finish(CheckoutEvent.SUCCEEDED, changed, now);
  }

  /**
   * The attempt failed (declined, authentication cancelled, prompt refused). With attempts left the session returns
   * to PENDING and the customer may try again; after the last allowed attempt it is FAILED (final).
   */
  public void failAttempt(int attemptNumber, String reason, Instant now, int maxAttempts) {
    PaymentAttempt attempt = current(attemptNumber);
    if (!attempt.status().isOpen()
        || !(status == SessionStatus.PROCESSING || status == SessionStatus.REQUIRES_CUSTOMER_ACTION)) {
      throw new IllegalTransitionException("attempt " + attemptNumber + " of " + details.id() + " is not open");
    }
    PaymentAttempt changed = replace(attempt.with(PaymentAttempt.Status.FAILED, null, reason, now));
    if (attemptsLeft(maxAttempts) > 0) {
      move(SessionStatus.PENDING, now);
      events.add(new CheckoutEvent(CheckoutEvent.ATTEMPT_FAILED, changed, null, now));
    } else {
      move(SessionStatus.FAILED, now);
      events.add(new CheckoutEvent(CheckoutEvent.ATTEMPT_FAILED, changed, null, now));
      finish(CheckoutEvent.FAILED, changed, now);
    }
  }

  /** The attempt never reached a rail (refused input, rail unavailable): back to PENDING, not counted. */
  public void rejectAttempt(int attemptNumber, String reason, Instant now) {
    PaymentAttempt attempt = open(attemptNumber, SessionStatus.PROCESSING);
    PaymentAttempt changed = replace(attempt.with(PaymentAttempt.Status.REJECTED, null, reason, now));
    move(SessionStatus.PENDING, now);
    events.add(new CheckoutEvent(CheckoutEvent.ATTEMPT_FAILED, changed, null, now));
  }

  /**
   * Whether the session is due to expire: a PENDING session at the end of its lifetime; one whose attempt is with the
   * customer or the rail only after the grace period too, so that an M-Pesa prompt approved at the last minute
   * still completes.
   */
  public boolean isDueToExpire(Instant now, Duration actionGrace) {
    if (status == SessionStatus.PENDING) {
      return !now.isBefore(details.expiresAt());
    }
    if (status == SessionStatus.PROCESSING || status == SessionStatus.REQUIRES_CUSTOMER_ACTION) {
      return !now.isBefore(details.expiresAt().plus(actionGrace));
    }
    return false;
  }

  /** The lifetime ended before payment: to EXPIRED (final); an open attempt fails with it. */
  public void expire(Instant now, Duration actionGrace) {
    if (!isDueToExpire(now, actionGrace)) {
      throw new IllegalTransitionException("session " + details.id() + " is not due to expire (" + status + ")");
    }
    PaymentAttempt last = attempts.isEmpty() ? null : attempts.getLast();
    if (last != null && last.status().isOpen()) {
      last = replace(last.with(PaymentAttempt.Status.FAILED, null, "the checkout session expired", now));
    }
    move(SessionStatus.EXPIRED, now);
    finish(CheckoutEvent.EXPIRED, last, now);
  }

  /**
   * The STK push of one of this session's M-Pesa attempts was paid after the session had stopped waiting for it: the
   * session expired first (the customer approved the prompt after the lifetime and its grace period), or the attempt
   * was closed without its push's result (refused as unavailable while collections-service had started the push
   * after all). The money was taken, so it is recorded, with {@code checkout.late_payment} and the merchant's callback;
   * the session's status and attempts stay as they are (a final status is final, and a later attempt may be the one
   * the session waits for). Recorded once per push: the same push again records nothing.
   *
   * @return false when this push's late payment was recorded before (nothing changes)
   * @throws IllegalTransitionException when the attempt is no M-Pesa attempt of this session, is still open (its
   *     outcome applies as usual), paid the session (a repeat), or started another push
   */
  public boolean recordLatePayment(int attemptNumber, RequestId stkRequestId, BigDecimal amount, String receipt,
      Instant now) {
    if (attemptNumber < 1 || attemptNumber > attempts.size()) {
      throw new IllegalTransitionException("session " + details.id() + " has no attempt " + attemptNumber);
    }
    PaymentAttempt attempt = attempts.get(attemptNumber - 1);
    if (attempt.method() != PaymentMethod.MPESA_STK || attempt.status().isOpen()
        || attempt.status() == PaymentAttempt.Status.SUCCEEDED) {
      throw new IllegalTransitionException("attempt " + attemptNumber + " of " + details.id() + " is "
          + attempt.method() + " " + attempt.status() + ": no late payment");
    }
    if (stkRequestId == null || (attempt.stkRequestId() != null && !attempt.stkRequestId().equals(stkRequestId))) {
      throw new IllegalTransitionException("attempt " + attemptNumber + " of " + details.id()
          + " started another STK push than " + stkRequestId);
    }
    if (latePayments.stream().anyMatch(p -> p.stkRequestId().equals(stkRequestId))) {
      return false;
    }
    LatePayment payment = new LatePayment(attemptNumber, stkRequestId, amount, receipt, now);
    latePayments.add(payment);
    updatedAt = now;
    events.add(new CheckoutEvent(CheckoutEvent.LATE_PAYMENT, attempt, null, now, payment));
    if (details.callbackUrl() != null) {
      events.add(new CheckoutEvent(CheckoutEvent.CALLBACK_REQUESTED, attempt, UUID.randomUUID(), now, payment));
    }
    return true;
  }

  private void finish(String type, PaymentAttempt attempt, Instant now) {
    events.add(new CheckoutEvent(type, attempt, null, now));
    if (details.callbackUrl() != null) {
      events.add(new CheckoutEvent(CheckoutEvent.CALLBACK_REQUESTED, attempt, UUID.randomUUID(), now));
    }
  }

  private PaymentAttempt open(int attemptNumber, SessionStatus expected) {
    PaymentAttempt attempt = current(attemptNumber);
    if (status != expected || !attempt.status().isOpen()) {
      throw new IllegalTransitionException("attempt " + attemptNumber + " of " + details.id() + " is "
          + attempt.status() + " and the session " + status + "; expected " + expected);
    }
    return attempt;
  }

  private PaymentAttempt current(int attemptNumber) {
    if (attempts.isEmpty() || attempts.getLast().number() != attemptNumber) {
      throw new IllegalTransitionException("attempt " + attemptNumber + " is not the current attempt of "
          + details.id());
    }
    return attempts.getLast();
  }

  private PaymentAttempt replace(PaymentAttempt attempt) {
    attempts.set(attempt.number() - 1, attempt);
    return attempt;
  }

  private void move(SessionStatus next, Instant now) {
    if (status.isFinal()) {
      throw new IllegalTransitionException("session " + details.id() + " is " + status + " already");
    }
    status = next;
    updatedAt = now;
  }

  public Details details() {
    return details;
  }

  public UUID id() {
    return details.id();
  }

  public long version() {
    return version;
  }

  public SessionStatus status() {
    return status;
  }

  public List<PaymentAttempt> attempts() {
    return List.copyOf(attempts);
  }

  /** The latest attempt, or null before the first. */
  public PaymentAttempt currentAttempt() {
    return attempts.isEmpty() ? null : attempts.getLast();
  }

  public Instant updatedAt() {
    return updatedAt;
  }

  public Instant paidAt() {
    return paidAt;
  }

  /** The method of the successful attempt, or null. */
  public PaymentMethod paidWith() {
    return attempts.stream().filter(a -> a.status() == PaymentAttempt.Status.SUCCEEDED).map(PaymentAttempt::method)
        .findFirst().orElse(null);
  }

  /** Payments of attempts the session no longer waited for, oldest first. */
  public List<LatePayment> latePayments() {
    return List.copyOf(latePayments);
  }

  /** Events of the transitions since creation or restoring, oldest first. */
  public List<CheckoutEvent> events() {
    return List.copyOf(events);
  }
}
