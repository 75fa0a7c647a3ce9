package dev.lipa.checkout.page;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.lipa.checkout.session.CheckoutSession;
import dev.lipa.checkout.session.PaymentAttempt;
import dev.lipa.checkout.session.SessionStatus;
import java.math.BigDecimal;
import java.util.List;

/**
 * What the hosted page's script sees of its own session: never another session's data, never the organisation id,
 * the callback URL or the merchant's references. {@code successUrl} appears only once the session SUCCEEDED.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PageState(String status, BigDecimal amount, String currency, String description,
    List<String> paymentMethods, int attemptsLeft, Attempt attempt, String successUrl, String cancelUrl,
    String expiresAt) {

  /** The latest attempt as the customer may see it. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Attempt(int number, String method, String status, String cardBrand, String cardLast4,
      String reason) {
  }

  static PageState of(CheckoutSession session, int maxAttempts) {
    CheckoutSession.Details d = session.details();
    PaymentAttempt a = session.currentAttempt();
    Attempt attempt = a == null ? null : new Attempt(a.number(), a.method().name(), a.status().name(), a.cardBrand(),
        a.cardLast4(), a.reason());
    return new PageState(session.status().name(), d.amount(), d.currency(), d.description(),
        d.paymentMethods().stream().map(Enum::name).toList(), session.attemptsLeft(maxAttempts), attempt,
        session.status() == SessionStatus.SUCCEEDED ? d.successUrl() : null, d.cancelUrl(),
        d.expiresAt().toString());
  }
}
