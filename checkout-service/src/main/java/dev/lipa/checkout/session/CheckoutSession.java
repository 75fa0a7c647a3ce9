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
 * are final and request the merchant's callback. Each transition records its events; the store writes state and events
 * in one compare-and-set on {@link #version()}.
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
  private final List<CheckoutEvent> events = new ArrayList<>();

  private CheckoutSession(Details details, long version, SessionStatus status, List<PaymentAttempt> attempts,
      Instant updatedAt, Instant paidAt) {
    this.details = details;
    this.version = version;
    this.status = status;
    this.attempts = new ArrayList<>(attempts);
    this.updatedAt = updatedAt;
    this.paidAt = paidAt;
  }

  public static CheckoutSession create(Details details) {
    CheckoutSession session = new CheckoutSession(details, 0, SessionStatus.PENDING, List.of(), details.createdAt(),
        null);
    session.events.add(new CheckoutEvent(CheckoutEvent.CREATED, null, null, details.createdAt()));
    return session;
  }

  public static CheckoutSession restore(Details details, long version, SessionStatus status,
      List<PaymentAttempt> attempts, Instant updatedAt, Instant paidAt) {
    return new CheckoutSession(details, version, status, attempts, updatedAt, paidAt);
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

  /** Events of the transitions since creation or restoring, oldest first. */
  public List<CheckoutEvent> events() {
    return List.copyOf(events);
  }
}
