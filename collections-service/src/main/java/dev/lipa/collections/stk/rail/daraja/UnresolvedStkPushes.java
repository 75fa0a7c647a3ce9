package dev.lipa.collections.stk.rail.daraja;

import dev.lipa.collections.stk.OverdueQuestions;
import dev.lipa.collections.stk.StkPush;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;

/**
 * The live STK pushes the reconciliation left to operators (still PENDING after the overdue sweep's last question),
 * each with what Daraja was told of it, so an operator can look it up on the M-Pesa organisation portal's statement.
 */
@Service
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
public class UnresolvedStkPushes {

  /** At most this many are listed, longest unresolved first: a list longer than that is an incident of its own. */
  static final int LIMIT = 500;

  /**
   * One unresolved push. {@code darajaState} is the request log's state ({@code UNKNOWN}: the acknowledgement was lost,
   * {@code SENDING}: the sender died mid-request, {@code ACCEPTED}: STK Query gave no verdict); {@code why} says what
   * that means in words.
   */
  public record View(String requestId, String organisationId, String referenceId, String phoneNumber,
      BigDecimal amount, String currency, String createdAt, String unresolvedAt, int questions, String darajaState,
      String shortcode, String checkoutRequestId, String why) {
  }

  private final OverdueQuestions questions;
  private final StkRequestLog requests;

  UnresolvedStkPushes(OverdueQuestions questions, StkRequestLog requests) {
    this.questions = questions;
    this.requests = requests;
  }

  public List<View> list() {
    return questions.unresolved(LIMIT).stream().map(this::view).toList();
  }

  private View view(OverdueQuestions.Unresolved unresolved) {
    StkPush.Details d = unresolved.push().details();
    Optional<StkRequestLog.Entry> sent = requests.find(d.requestId());
    StkRequestLog.State state = sent.map(StkRequestLog.Entry::state).orElse(null);
    return new View(d.requestId().toString(), d.organisationId().value(), d.referenceId(), d.phoneNumber(), d.amount(),
        d.currency().name(), d.createdAt().toString(), unresolved.unresolvedAt().toString(), unresolved.questions(),
        state == null ? null : state.name(), sent.map(StkRequestLog.Entry::shortcode).orElse(null),
        sent.map(StkRequestLog.Entry::checkoutRequestId).orElse(null), why(state));
  }

  private static String why(StkRequestLog.State state) {
    return switch (state) {
      case null -> "never sent to Daraja";
      case UNKNOWN, SENDING -> "Daraja's acknowledgement was lost: there is no CheckoutRequestID to ask STK Query "
          + "about and no callback came; look for a payment of this amount from this phone number to this shortcode "
          + "on the M-Pesa statement";
      case ACCEPTED -> "STK Query gave no verdict on any question (being processed, no answer, or a code that is no "
          + "verdict); look the CheckoutRequestID up with Safaricom";
      case REFUSED -> "refused by Daraja, yet not failed: the failure was not recorded";
    };
  }
}
