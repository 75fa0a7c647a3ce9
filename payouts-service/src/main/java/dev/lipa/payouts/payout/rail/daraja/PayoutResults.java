package dev.lipa.payouts.payout.rail.daraja;

import dev.lipa.common.tracing.LogContext;
import dev.lipa.payouts.payout.rail.PayoutOutcomeHandler;
import dev.lipa.payouts.payout.rail.PayoutRailOutcome;
import dev.lipa.rails.daraja.callback.DarajaCallbacks;
import dev.lipa.rails.daraja.callback.DarajaResult;
import dev.lipa.rails.daraja.callback.Parsed;
import dev.lipa.rails.daraja.callback.SourceAddresses;
import dev.lipa.rails.daraja.callback.TransactionStatusReport;
import dev.lipa.rails.daraja.result.ResultCodes;
import dev.lipa.rails.daraja.result.ResultMeaning;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;

/**
 * Daraja's results of payouts (and of the funds reconciliation's Account Balance questions, which
 * {@link BalanceReconciliations} matches), posted to a shortcode's ResultURL ({@code /daraja/v1/results/<segment>}) and
 * QueueTimeOutURL ({@code /daraja/v1/timeouts/<segment>}), read as untrusted input and applied only when everything
 * agrees: an allowed sender, the shortcode's unguessable segment (compared in constant time), a payout sent from that
 * shortcode and named by our OriginatorConversationID or Daraja's ConversationID, the amount of the payout and, when
 * Daraja shows it in full, its receiver. A B2C/B2B result settles the payout by its result code ({@link ResultCodes});
 * a Transaction Status result settles it only as paid ({@code Completed}); a queue timeout settles nothing. A repeated
 * result changes nothing (the outcome's compare-and-set); anything else is logged and refused.
 */
@Service
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
public class PayoutResults {

  private static final Logger log = LoggerFactory.getLogger(PayoutResults.class);

  private final PayoutShortcodes shortcodes;
  private final PayoutRequestLog requests;
  private final PayoutOutcomeHandler outcomes;
  private final SourceAddresses sources;
  private final BalanceReconciliations reconciliations;

  PayoutResults(PayoutShortcodes shortcodes, PayoutRequestLog requests, PayoutOutcomeHandler outcomes,
      DarajaPayoutsProperties properties, BalanceReconciliations reconciliations) {
    this.shortcodes = shortcodes;
    this.reconciliations = reconciliations;
    this.requests = requests;
    this.outcomes = outcomes;
    this.sources = SourceAddresses.of(properties.callbackSources());
    if (sources.isEmpty()) {
      log.warn("lipa.payouts.daraja.callback-sources is empty: every Daraja result is refused");
    }
  }

  /** What the receiver answers. */
  public enum Verdict {
    /** Applied, a repeat of one applied already, or a result that settles nothing (logged). */
    ACCEPTED,
    /** Not from an allowed address. */
    FORBIDDEN,
    /** No such result address, or no payout it names: answered as an unknown path. */
    UNKNOWN,
    /** Not Daraja's body, or not this payout's result. */
    REFUSED
  }

  /** Reads and applies one result posted to the ResultURL. */
  public Verdict result(String segment, String source, String body) {
    Optional<PayoutShortcode> shortcode = check(segment, source);
    if (shortcode == null) {
      return Verdict.FORBIDDEN;
    }
    if (shortcode.isEmpty()) {
      return Verdict.UNKNOWN;
    }
    DarajaResult result;
    switch (DarajaCallbacks.result(body)) {
      case Parsed.Valid<DarajaResult>(DarajaResult value) -> result = value;
      case Parsed.Rejected<DarajaResult>(String reason) -> {
        log.warn("Daraja result for shortcode {} refused: {}", shortcode.get().shortcode(), reason);
        return Verdict.REFUSED;
      }
    }
    String originator = result.originatorConversationId() == null ? "" : result.originatorConversationId();
    String conversation = result.conversationId() == null ? "" : result.conversationId();
    Optional<PayoutRequestLog.Entry> payout = requests.findByOriginatorConversationId(originator)
        .or(() -> requests.findByConversationId(conversation));
    if (payout.isEmpty()) {
      Optional<PayoutRequestLog.Entry> asked = requests.findByStatusConversationId(conversation)
          .filter(p -> p.shortcode().equals(shortcode.get().shortcode()));
      if (asked.isPresent()) {
        try (LogContext context = LogContext.payment(asked.get().organisationId(), asked.get().requestId())) {
          return transactionStatus(asked.get(), result);
        }
      }
      Optional<Verdict> balance = reconciliations.answer(shortcode.get().shortcode(), result);
      if (balance.isPresent()) {
        return balance.get();
      }
    }
    if (payout.isEmpty() || !payout.get().shortcode().equals(shortcode.get().shortcode())) {
      log.warn("Daraja result {} / {} names no payout of shortcode {}: refused", originator, conversation,
          shortcode.get().shortcode());
      return Verdict.UNKNOWN;
    }
    try (LogContext context = LogContext.payment(payout.get().organisationId(), payout.get().requestId())) {
      return payoutResult(payout.get(), result);
    }
  }

  /** A queue timeout: Daraja gave up on the request in its queue, which says nothing final; logged. */
  public Verdict timeout(String segment, String source, String body) {
    Optional<PayoutShortcode> shortcode = check(segment, source);
    if (shortcode == null) {
      return Verdict.FORBIDDEN;
    }
    if (shortcode.isEmpty()) {
      return Verdict.UNKNOWN;
    }
    log.warn("Daraja queue timeout for shortcode {} ({} characters): the payout stays PENDING, Transaction Status "
        + "settles it", shortcode.get().shortcode(), body == null ? 0 : body.length());
    return Verdict.ACCEPTED;
  }

  private Verdict payoutResult(PayoutRequestLog.Entry payout, DarajaResult result) {
    ResultMeaning meaning = ResultCodes.payout(result.resultCode());
    switch (meaning.outcome()) {
      case UNSETTLED -> {
        log.warn("Daraja result {} ({}) for payout {} is no verdict: PENDING until Transaction Status settles it",
            result.resultCode(), result.resultDesc(), payout.requestId());
        return Verdict.ACCEPTED;
      }
      case SUCCEEDED -> {
        Optional<String> receipt = result.receipt();
        if (receipt.isEmpty() || !sameAmount(result.amount(), payout.amount())
            || !sameReceiver(result.parameter("ReceiverPartyPublicName"), payout.receiver())) {
          log.error("Daraja result for payout {} says paid but its receipt, amount or receiver is not the payout's: "
              + "refused, left PENDING for reconciliation", payout.requestId());
          return Verdict.REFUSED;
        }
        apply(payout, result.conversationId(), 0, result.resultDesc(), receipt.get(),
            result.parameter("ReceiverPartyPublicName").orElse(null));
        return Verdict.ACCEPTED;
      }
      case FAILED -> {
        apply(payout, result.conversationId(), failureCode(result.resultCode()), result.resultDesc(), null, null);
        return Verdict.ACCEPTED;
      }
    }
    return Verdict.REFUSED;
  }

  /** A Transaction Status result about {@code payout}: it settles the payout only when the transaction completed. */
  private Verdict transactionStatus(PayoutRequestLog.Entry payout, DarajaResult result) {
    TransactionStatusReport report = TransactionStatusReport.of(result);
    if (!(report instanceof TransactionStatusReport.Completed completed)) {
      log.info("Transaction Status answered {} about payout {}: nothing settled", report, payout.requestId());
      return Verdict.ACCEPTED;
    }
    if (completed.originatorConversationId() != null
        && !completed.originatorConversationId().equals(payout.originatorConversationId())) {
      log.warn("Transaction Status asked about payout {} answers about another transaction: refused",
          payout.requestId());
      return Verdict.REFUSED;
    }
    if (completed.receipt() == null || !sameAmount(Optional.ofNullable(completed.amount()), payout.amount())) {
      log.error("Transaction Status says payout {} completed but its receipt or amount is not the payout's: refused",
          payout.requestId());
      return Verdict.REFUSED;
    }
    apply(payout, payout.conversationId(), 0, "Completed (Transaction Status)", completed.receipt(), null);
    return Verdict.ACCEPTED;
  }

  private void apply(PayoutRequestLog.Entry payout, String conversationId, int resultCode, String description,
      String receipt, String receiverName) {
    boolean applied = outcomes.apply(new PayoutRailOutcome(payout.organisationId(), payout.requestId(),
        conversationId, 0, "Accepted", resultCode, description, receipt, receiverName));
    log.info("Daraja result {} for payout {} {}", resultCode, payout.requestId(),
        applied ? "applied" : "was applied already");
  }

  /** null: a forbidden source; empty: no such segment. */
  private Optional<PayoutShortcode> check(String segment, String source) {
    if (!sources.allows(source)) {
      log.warn("Daraja result from {} refused: not an allowed source", source);
      return null;
    }
    Optional<PayoutShortcode> shortcode = shortcodes.byCallbackSegment(segment).filter(s ->
        MessageDigest.isEqual(s.callbackSegment().getBytes(StandardCharsets.UTF_8),
            segment.getBytes(StandardCharsets.UTF_8)));
    if (shortcode.isEmpty()) {
      log.warn("Daraja result from {} to an unknown address refused", source);
    }
    return shortcode;
  }

  private static boolean sameAmount(Optional<BigDecimal> paid, BigDecimal payout) {
    return paid.isPresent() && paid.get().compareTo(payout) == 0;
  }

  /**
   * Daraja shows the receiver as {@code "<number> - <name>"}; when the number is shown in full it must be the payout's
   * (a masked or absent number says nothing).
   */
  private static boolean sameReceiver(Optional<String> publicName, String receiver) {
    if (publicName.isEmpty()) {
      return true;
    }
    String number = publicName.get().strip().split("[\\s\\-–]+", 2)[0];
    return !number.matches("[0-9]{5,15}") || number.equals(receiver);
  }

  private static int failureCode(String code) {
    try {
      int value = Integer.parseInt(code);
      return value == 0 ? 1 : value;
    } catch (NumberFormatException e) {
      return 1;
    }
  }
}
