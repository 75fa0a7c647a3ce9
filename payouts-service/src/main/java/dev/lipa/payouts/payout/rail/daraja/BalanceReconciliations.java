package dev.lipa.payouts.payout.rail.daraja;

import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.ledger.Liability;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.payout.rail.daraja.BalanceReconciliation.Account;
import dev.lipa.payouts.payout.rail.daraja.BalanceReconciliation.Question;
import dev.lipa.payouts.payout.rail.daraja.BalanceReconciliation.QuestionState;
import dev.lipa.payouts.payout.rail.daraja.PayoutResults.Verdict;
import dev.lipa.rails.daraja.Acknowledgement;
import dev.lipa.rails.daraja.Outcome;
import dev.lipa.rails.daraja.Refusal;
import dev.lipa.rails.daraja.callback.AccountBalances;
import dev.lipa.rails.daraja.callback.DarajaResult;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;

/**
 * The funds reconciliation of a live stack: asks Daraja's Account Balance of every reconciled shortcode, takes each
 * answer from the shortcode's ResultURL (matched by the ConversationID of the question, after {@link PayoutResults}'
 * checks of the sender and the address), and keeps the report ({@link BalanceReconciliation}); run daily by
 * {@link DailyReconciliation} and on demand by operators. docs/going-live.md, "The funds model", says what is compared
 * and why.
 */
@Service
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
public class BalanceReconciliations {

  /** M-Pesa's day: Account Balance and the daily run are Nairobi's. */
  static final ZoneId NAIROBI = ZoneId.of("Africa/Nairobi");
  static final String REMARKS = "Funds reconciliation";
  /** Compare-and-set attempts: answers of several shortcodes may arrive at once, on several replicas. */
  private static final int ATTEMPTS = 8;
  private static final int FAILURE_MAX = 200;
  private static final Pattern ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  private static final Logger log = LoggerFactory.getLogger(BalanceReconciliations.class);

  private final BalanceReconciliationStore store;
  private final PayoutShortcodes shortcodes;
  private final PayoutClients clients;
  private final Ledger ledger;
  private final DarajaPayoutsProperties.Reconciliation settings;
  private final Clock clock;

  BalanceReconciliations(BalanceReconciliationStore store, PayoutShortcodes shortcodes, PayoutClients clients,
      Ledger ledger, DarajaPayoutsProperties properties, Clock clock) {
    this.store = store;
    this.shortcodes = shortcodes;
    this.clients = clients;
    this.ledger = ledger;
    this.settings = properties.reconciliation();
    this.clock = clock;
  }

  /** Runs a reconciliation now, for an operator (not the day's scheduled one, which still runs). */
  public ReconciliationView runNow() {
    Instant now = clock.instant();
    return ReconciliationView.of(run(BalanceReconciliation.Trigger.OPERATOR, now.atZone(NAIROBI).toLocalDate(), now,
        () -> { }).orElseThrow());
  }

  /** The most recent reports first. */
  public List<ReconciliationView> latest(int limit) {
    return store.latest(limit).stream().map(ReconciliationView::of).toList();
  }

  /** The report with this id; empty for any other id, a malformed one included. */
  public Optional<ReconciliationView> find(String id) {
    return ID.matcher(id).matches() ? store.find(id).map(ReconciliationView::of) : Optional.empty();
  }

  /**
   * Opens a report and asks every reconciled shortcode, calling {@code beforeEachQuestion} before each (the job's
   * fencing check). Empty when {@code trigger} is SCHEDULED and the day has its reconciliation already.
   */
  Optional<BalanceReconciliation> run(BalanceReconciliation.Trigger trigger, LocalDate date, Instant now,
      Runnable beforeEachQuestion) {
    List<PayoutShortcodes.Opened> targets = shortcodes.reconciled();
    // the ledger as it is before any shortcode is asked: what moves while they answer is what in-flight allows for
    Liability owed = ledger.liability(Currency.KSH);
    BalanceReconciliation report = BalanceReconciliation.open(UUID.randomUUID().toString(), date, trigger, owed,
        settings.platformFunds(), targets.stream().map(PayoutShortcodes.Opened::shortcode).toList(), now,
        settings.answerWithin());
    if (!store.insert(report)) {
      return Optional.empty();
    }
    log.info("funds reconciliation {} of {} ({}): asking {} shortcodes; the ledger owes {} KSH, {} in {} payouts in "
        + "flight", report.id(), date, trigger, targets.size(), owed.total(), owed.reserved(), owed.reservations());
    for (PayoutShortcodes.Opened target : targets) {
      beforeEachQuestion.run();
      ask(report.id(), target);
    }
    return store.find(report.id());
  }

  private void ask(String id, PayoutShortcodes.Opened target) {
    String shortcode = target.shortcode();
    if (!clients.canAsk()) {
      failed(id, shortcode, "not asked: lipa.payouts.daraja.callback-base-url is not set");
      return;
    }
    switch (clients.of(target).accountBalance(REMARKS)) {
      case Outcome.Accepted<Acknowledgement>(Acknowledgement ack)
          when ack.conversationId() != null && !ack.conversationId().isBlank() ->
          // a report closed meanwhile (its deadline passed while Daraja acknowledged) stays as it closed
          change(id, r -> r.status() == BalanceReconciliation.Status.OPEN ? r.asked(shortcode, ack.conversationId())
              : r);
      case Outcome.Accepted<Acknowledgement> ack -> failed(id, shortcode, "acknowledged without a ConversationID");
      case Outcome.Refused<Acknowledgement>(Refusal refusal) -> failed(id, shortcode, "not asked: " + refusal.kind()
          + (refusal.errorCode() == null ? "" : " " + refusal.errorCode())
          + (refusal.message() == null ? "" : " " + refusal.message()));
      // Daraja may still answer, but under a ConversationID this side never learnt: it could not be matched
      case Outcome.Unknown<Acknowledgement> unknown ->
          failed(id, shortcode, "no acknowledgement (" + unknown.cause() + ")");
    }
  }

  private void failed(String id, String shortcode, String failure) {
    change(id, r -> r.status() == BalanceReconciliation.Status.OPEN ? r.failed(shortcode, cut(failure),
        clock.instant()) : r);
  }

  /** Whether the day has its scheduled reconciliation. */
  boolean scheduledFor(LocalDate date) {
    return store.scheduledFor(date);
  }

  /** Closes the open reports whose deadline has passed (INCOMPLETE); returns how many. */
  int expireOverdue(Instant now) {
    int expired = 0;
    for (BalanceReconciliation report : store.openPast(now, 100)) {
      if (change(report.id(), r -> r.status() == BalanceReconciliation.Status.OPEN ? r.expire(now) : r)) {
        expired++;
      }
    }
    return expired;
  }

  /**
   * An Account Balance answer posted to {@code shortcode}'s ResultURL (its sender and address checked already): empty
   * when no question of a reconciliation was acknowledged under its ConversationID (the caller refuses it as unknown).
   * A repeat changes nothing; a second answer that says otherwise is refused; a late one (the report closed without
   * it) is logged and changes nothing.
   */
  Optional<Verdict> answer(String shortcode, DarajaResult result) {
    String conversation = result.conversationId();
    if (conversation == null || conversation.isBlank()) {
      return Optional.empty();
    }
    Optional<List<Account>> accounts = AccountBalances.of(result).map(this::accounts);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<BalanceReconciliation> found = store.findByConversationId(conversation);
      if (found.isEmpty()) {
        return Optional.empty();
      }
      BalanceReconciliation report = found.get();
      Question question = report.byConversation(conversation).orElseThrow();
      if (!question.shortcode().equals(shortcode)) {
        log.warn("Account Balance answer {} posted to shortcode {}'s address names shortcode {}'s question: refused",
            conversation, shortcode, question.shortcode());
        return Optional.of(Verdict.UNKNOWN);
      }
      if (result.successful() && accounts.isEmpty()) {
        log.warn("Account Balance answer {} of shortcode {} is not in Daraja's format: refused", conversation,
            shortcode);
        return Optional.of(Verdict.REFUSED);
      }
      if (report.status() != BalanceReconciliation.Status.OPEN || question.state() != QuestionState.ASKED) {
        return Optional.of(settled(report, question, accounts));
      }
      BalanceReconciliation next = result.successful() ? report.answered(conversation, accounts.get(), clock.instant())
          : report.failed(shortcode, cut("Daraja answered " + result.resultCode() + ": " + result.resultDesc()),
              clock.instant());
      if (store.replace(next, report.version())) {
        logged(next);
        return Optional.of(Verdict.ACCEPTED);
      }
    }
    throw new IllegalStateException("reconciliation answer " + conversation + " kept meeting other changes");
  }

  /** An answer to a question that has its answer already, or whose report closed without it. */
  private static Verdict settled(BalanceReconciliation report, Question question, Optional<List<Account>> accounts) {
    if (question.state() == QuestionState.ANSWERED
        && (accounts.isEmpty() || !accounts.get().equals(question.accounts()))) {
      log.error("shortcode {} answered reconciliation {} a second time, saying otherwise: refused, the first "
          + "answer stands", question.shortcode(), report.id());
      return Verdict.REFUSED;
    }
    log.info("Account Balance answer for shortcode {} of reconciliation {} ({}, question {}): nothing changes",
        question.shortcode(), report.id(), report.status(), question.state());
    return Verdict.ACCEPTED;
  }

  private List<Account> accounts(List<AccountBalances.Account> balances) {
    return balances.stream().map(a -> new Account(a.name(), a.currency(), a.available(), a.amounts(),
        BalanceReconciliation.KES.equals(a.currency())
            && settings.excludedAccounts().stream().noneMatch(a.name()::equalsIgnoreCase))).toList();
  }

  /** Applies a transition by compare-and-set, reading the report again when another change came first. */
  private boolean change(String id, UnaryOperator<BalanceReconciliation> transition) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      BalanceReconciliation current = store.find(id).orElseThrow();
      BalanceReconciliation next = transition.apply(current);
      if (next == current) {
        return false;
      }
      if (store.replace(next, current.version())) {
        logged(next);
        return true;
      }
    }
    throw new IllegalStateException("reconciliation " + id + " kept meeting other changes");
  }

  private static void logged(BalanceReconciliation report) {
    switch (report.status()) {
      case OPEN -> { }
      case MATCHED -> log.info("funds reconciliation {} of {}: MATCHED (difference {} KSH, {} in flight)",
          report.id(), report.date(), report.comparison().difference(), report.inFlightAmount());
      case DIFFERENT -> log.error("FUNDS RECONCILIATION DIFFERENT: {} of {}: the shortcodes hold {} KSH, the ledger "
          + "owes {} ({} in flight): difference {}", report.id(), report.date(), report.comparison().held(),
          report.ledgerTotal(), report.inFlightAmount(), report.comparison().difference());
      case INCOMPLETE -> log.error("FUNDS RECONCILIATION INCOMPLETE: {} of {}: {}", report.id(), report.date(),
          report.questions().stream().filter(q -> q.state() != QuestionState.ANSWERED)
              .map(q -> q.shortcode() + " " + q.state() + " (" + q.failure() + ")").toList());
    }
  }

  /** Text for operators, bounded: Daraja's descriptions are untrusted input. */
  private static String cut(String text) {
    String printable = text.replaceAll("[\\p{Cntrl}]", " ");
    return printable.length() <= FAILURE_MAX ? printable : printable.substring(0, FAILURE_MAX);
  }
}
