package dev.lipa.checkout.mpesa;

import dev.lipa.checkout.session.CheckoutSession;
import dev.lipa.checkout.session.CheckoutSessions;
import dev.lipa.checkout.session.IllegalTransitionException;
import dev.lipa.checkout.session.PaymentAttempt;
import dev.lipa.checkout.session.PaymentMethod;
import dev.lipa.checkout.session.SessionStatus;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.web.FieldErrors;
import dev.lipa.common.web.ValidationException;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * M-Pesa (STK push) payments of checkout sessions: starts the push through collections-service and applies its
 * outcome. While the prompt is on the customer's phone the session is REQUIRES_CUSTOMER_ACTION; the outcome moves it
 * through PROCESSING to SUCCEEDED, or fails the attempt.
 *
 * <p>The push's {@code referenceId} is {@code chk_<sessionId>_<attempt>}: it ties the outcome event back to the
 * attempt, and collections' unique (organisation, referenceId) makes a repeated call start one push only.
 */
@Service
public class MpesaPayments {

  static final Pattern REFERENCE = Pattern.compile("chk_([0-9a-f-]{36})_(\\d{1,3})");
  private static final Logger log = LoggerFactory.getLogger(MpesaPayments.class);
  private static final String UNAVAILABLE = "M-Pesa is not available right now. Please try again in a moment.";

  private final CheckoutSessions sessions;
  private final StkPushClient client;

  public MpesaPayments(CheckoutSessions sessions, StkPushClient client) {
    this.sessions = sessions;
    this.client = client;
  }

  /** collections-service could not start the push; nothing was charged and the attempt does not count. */
  public static final class RailUnavailableException extends RuntimeException {
    RailUnavailableException() {
      super(UNAVAILABLE, null, false, false);
    }
  }

  /**
   * Starts an STK push for the session: PENDING → PROCESSING (the attempt), then REQUIRES_CUSTOMER_ACTION once
   * collections accepted it. A refused phone number is a field error (the attempt is REJECTED and does not count).
   */
  public CheckoutSession start(String checkoutRef, String phoneText) {
    String phone = phoneText == null ? "" : phoneText.replaceAll("[\\s-]", "");
    if (!phone.matches("\\+?\\d{9,15}")) {
      throw ValidationException.of("phoneNumber", "Enter your M-Pesa phone number, e.g. 0712345678 or +254712345678");
    }
    String msisdn = phone;
    int[] number = new int[1];
    CheckoutSession started = sessions.change(checkoutRef, s -> number[0] =
        s.startAttempt(PaymentMethod.MPESA_STK, null, null, msisdn, sessions.now(), sessions.maxAttempts()).number());
    CheckoutSession.Details d = started.details();
    String ref = d.checkoutRef();
    String description = d.description().length() > 13 ? d.description().substring(0, 13).strip() : d.description();
    StkPushClient.Result result = client.start(new StkPushClient.Push(d.organisationId(), msisdn, d.amount(),
        d.checkoutCurrency().stkCurrencyCode(), description, ref.substring(ref.length() - 12),
        "chk_" + d.id() + "_" + number[0],
        d.description().length() > 100 ? d.description().substring(0, 100) : d.description(), "Checkout customer"));
    return switch (result) {
      case StkPushClient.Result.Accepted accepted -> sessionAfter(checkoutRef, s -> {
        if (s.status() == SessionStatus.PROCESSING && isCurrentOpen(s, number[0])) {
          s.requireAction(number[0], accepted.requestId(), sessions.now());
        }
      });
      case StkPushClient.Result.Refused refused -> {
        String reason = refused.errors().values().stream().flatMap(java.util.List::stream).findFirst()
            .orElse("The phone number was refused");
        sessionAfter(checkoutRef, s -> s.rejectAttempt(number[0], reason, sessions.now()));
        FieldErrors errors = new FieldErrors();
        refused.errors().forEach((field, messages) -> messages.forEach(m ->
            errors.add("phoneNumber".equals(field) ? "phoneNumber" : "mpesa", m)));
        throw new ValidationException(errors);
      }
      case StkPushClient.Result.Unavailable unavailable -> {
        sessionAfter(checkoutRef, s -> s.rejectAttempt(number[0], UNAVAILABLE, sessions.now()));
        throw new RailUnavailableException();
      }
    };
  }

  private CheckoutSession sessionAfter(String checkoutRef, java.util.function.Consumer<CheckoutSession> change) {
    try {
      return sessions.change(checkoutRef, change);
    } catch (IllegalTransitionException e) {
      // the outcome or the expiry got there first: show the session as it is
      log.info("M-Pesa attempt of {} moved on meanwhile: {}", checkoutRef, e.getMessage());
      return sessions.findByRef(checkoutRef).orElseThrow();
    }
  }

  /** An STK outcome from payments.collections.v1, as checkout reads it. */
  public record StkOutcome(OrganisationId organisationId, String referenceId, RequestId stkRequestId,
      boolean succeeded, BigDecimal amount, String receipt, String resultDescription) {
  }

  /**
   * Applies an STK outcome from payments.collections.v1. Events of pushes checkout did not start (other referenceIds),
   * of other attempts, and repeats are ignored: the attempt's state decides, so a redelivered event changes nothing.
   * A payment for an attempt the session no longer waits for (it expired first) is recorded as a late payment, once
   * per push ({@link CheckoutSession#recordLatePayment}): the money was taken, so the merchant must hear of it.
   *
   * @return whether the session changed
   */
  public boolean applyOutcome(StkOutcome outcome) {
    Optional<Target> target = parse(outcome.referenceId());
    if (target.isEmpty() || outcome.organisationId() == null) {
      return false;
    }
    int attempt = target.get().attempt();
    RequestId stkRequestId = outcome.stkRequestId();
    boolean succeeded = outcome.succeeded();
    String referenceId = outcome.referenceId();
    try {
      CheckoutSession after = sessions.change(outcome.organisationId(), target.get().sessionId(), s -> {
        PaymentAttempt current = s.currentAttempt();
        if (!isCurrentOpen(s, attempt) && succeeded) {
          if (s.recordLatePayment(attempt, stkRequestId, outcome.amount(), outcome.receipt(), sessions.now())) {
            log.warn("STK push {} paid attempt {} of checkout session {} after the session stopped waiting for it "
                + "({}): recorded as a late payment, the merchant is told", stkRequestId, attempt, s.id(), s.status());
          }
          return;
        }
        if (!isCurrentOpen(s, attempt) || current.method() != PaymentMethod.MPESA_STK
            || (current.stkRequestId() != null && !current.stkRequestId().equals(stkRequestId))) {
          return;
        }
        if (s.status() == SessionStatus.PROCESSING && current.stkRequestId() == null) {
          // the outcome overtook our own note that the prompt was sent
          s.requireAction(attempt, stkRequestId, sessions.now());
        }
        s.resume(attempt, sessions.now());
        if (succeeded) {
          s.succeed(attempt, sessions.now());
        } else {
          s.failAttempt(attempt, customerReason(outcome.resultDescription()), sessions.now(),
              sessions.maxAttempts());
        }
      });
      return !after.events().isEmpty();
    } catch (CheckoutSessions.UnknownSessionException | IllegalTransitionException e) {
      log.info("STK outcome {} for {} ignored: {}", stkRequestId, referenceId, e.getMessage());
      return false;
    }
  }

  private static boolean isCurrentOpen(CheckoutSession session, int attempt) {
    PaymentAttempt current = session.currentAttempt();
    return current != null && current.number() == attempt && current.status().isOpen();
  }

  static String customerReason(String resultDescription) {
    return resultDescription == null || resultDescription.isBlank()
        ? "The M-Pesa payment did not go through." : "The M-Pesa payment did not go through: " + resultDescription;
  }

  record Target(UUID sessionId, int attempt) {
  }

  static Optional<Target> parse(String referenceId) {
    if (referenceId == null) {
      return Optional.empty();
    }
    Matcher m = REFERENCE.matcher(referenceId);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Target(UUID.fromString(m.group(1)), Integer.parseInt(m.group(2))));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
