package dev.lipa.payouts.payout.rail.daraja;

import dev.lipa.payouts.ledger.Liability;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One reconciliation of the live ledger against Daraja's Account Balance of the platform's shortcodes. Opened with
 * the ledger's liability at the moment the shortcodes are asked; each shortcode is asked once and answers once (on
 * its ResultURL, later); it closes MATCHED or DIFFERENT when every shortcode has answered ({@link FundsComparison}
 * says which), INCOMPLETE as soon as one could not be asked or answered with a failure, or when the deadline passes
 * without its answer. A closed report never changes: a late or repeated answer is no transition.
 *
 * @param date the day in Nairobi (M-Pesa's day) the reconciliation is of
 * @param ledgerTotal what the ledger owed when the shortcodes were asked (available and reserved, every merchant)
 * @param platformFunds the platform's own money the shortcodes were expected to hold besides (as configured then)
 * @param inFlightAmount what payouts in flight held then (reserved: paid or not, their results had not come)
 * @param comparison set once every shortcode answered
 * @param version increases with every transition (the store's compare-and-set)
 */
record BalanceReconciliation(String id, LocalDate date, Trigger trigger, Status status, Instant askedAt,
    Instant deadline, BigDecimal ledgerTotal, BigDecimal platformFunds, BigDecimal inFlightAmount, int inFlightPayouts,
    List<Question> questions, FundsComparison comparison, Instant closedAt, long version) {

  /** The currency of M-Pesa Kenya's accounts as Account Balance names it (the ledger's KSH). */
  static final String KES = "KES";

  /** What started it. */
  enum Trigger { SCHEDULED, OPERATOR }

  enum Status { OPEN, MATCHED, DIFFERENT, INCOMPLETE }

  /** Where the question to one shortcode stands. */
  enum QuestionState {
    /** Being sent. */
    ASKING,
    /** Daraja acknowledged it under {@code conversationId}; its answer comes to the ResultURL. */
    ASKED,
    ANSWERED,
    /** Not asked (refused, or no acknowledgement), or Daraja answered with a failure. */
    FAILED,
    /** No answer by the deadline. */
    UNANSWERED
  }

  /** One account of a shortcode as Account Balance gave it; {@code compared} when it holds merchants' money. */
  record Account(String name, String currency, BigDecimal available, List<BigDecimal> amounts, boolean compared) {
    Account {
      amounts = List.copyOf(amounts);
    }
  }

  /**
   * The question to one shortcode and its answer.
   *
   * @param funds the compared accounts' sum, once answered
   * @param failure why there is no answer (what Daraja or the connector said), for operators
   */
  record Question(String shortcode, QuestionState state, String conversationId, List<Account> accounts,
      BigDecimal funds, String failure, Instant answeredAt) {

    Question {
      accounts = List.copyOf(accounts);
    }

    static Question asking(String shortcode) {
      return new Question(shortcode, QuestionState.ASKING, null, List.of(), null, null, null);
    }

    boolean waiting() {
      return state == QuestionState.ASKING || state == QuestionState.ASKED;
    }
  }

  BalanceReconciliation {
    Objects.requireNonNull(id, "id");
    questions = List.copyOf(questions);
  }

  /** A reconciliation asking these shortcodes now; with none to ask it is closed at once (nothing held). */
  static BalanceReconciliation open(String id, LocalDate date, Trigger trigger, Liability owed,
      BigDecimal platformFunds, Collection<String> shortcodes, Instant now, Duration answerWithin) {
    BalanceReconciliation opened = new BalanceReconciliation(id, date, trigger, Status.OPEN, now,
        now.plus(answerWithin), owed.total(), platformFunds, owed.reserved(), owed.reservations(),
        shortcodes.stream().map(Question::asking).toList(), null, null, 0);
    return opened.closeIfSettled(now);
  }

  /** Daraja acknowledged the question to {@code shortcode} under this ConversationID. */
  BalanceReconciliation asked(String shortcode, String conversationId) {
    waiting(shortcode, QuestionState.ASKING);
    return with(new Question(shortcode, QuestionState.ASKED, conversationId, List.of(), null, null, null), null);
  }

  /** The question could not be asked, or its answer is a failure: the report will be INCOMPLETE. */
  BalanceReconciliation failed(String shortcode, String failure, Instant now) {
    Question q = question(shortcode).filter(Question::waiting).orElseThrow(() -> illegal(shortcode, "fail"));
    return with(new Question(shortcode, QuestionState.FAILED, q.conversationId(), List.of(), null, failure, now), now);
  }

  /** The shortcode's balances, answered to the question acknowledged under {@code conversationId}. */
  BalanceReconciliation answered(String conversationId, List<Account> accounts, Instant now) {
    Question q = byConversation(conversationId).filter(a -> a.state() == QuestionState.ASKED)
        .orElseThrow(() -> illegal(conversationId, "answer"));
    BigDecimal funds = accounts.stream().filter(Account::compared).map(Account::available)
        .reduce(BigDecimal.ZERO, BigDecimal::add);
    return with(new Question(q.shortcode(), QuestionState.ANSWERED, conversationId, accounts,
        FundsComparison.money(funds), null, now), now);
  }

  /** Past the deadline, every shortcode that has not answered is UNANSWERED and the report INCOMPLETE. */
  BalanceReconciliation expire(Instant now) {
    if (status != Status.OPEN || now.isBefore(deadline)) {
      throw new IllegalStateException("reconciliation " + id + " is " + status + ", due " + deadline);
    }
    List<Question> expired = questions.stream().map(q -> !q.waiting() ? q : new Question(q.shortcode(),
        QuestionState.UNANSWERED, q.conversationId(), List.of(), null, "no answer by " + deadline, null)).toList();
    return new BalanceReconciliation(id, date, trigger, Status.INCOMPLETE, askedAt, deadline, ledgerTotal,
        platformFunds, inFlightAmount, inFlightPayouts, expired, null, now, version + 1);
  }

  Optional<Question> question(String shortcode) {
    return questions.stream().filter(q -> q.shortcode().equals(shortcode)).findFirst();
  }

  Optional<Question> byConversation(String conversationId) {
    return questions.stream().filter(q -> conversationId.equals(q.conversationId())).findFirst();
  }

  /** What the answered shortcodes hold in their compared accounts (all of it once every one answered). */
  BigDecimal held() {
    return FundsComparison.money(questions.stream().filter(q -> q.funds() != null).map(Question::funds)
        .reduce(BigDecimal.ZERO, BigDecimal::add));
  }

  private Question waiting(String shortcode, QuestionState state) {
    return question(shortcode).filter(q -> q.state() == state).orElseThrow(() -> illegal(shortcode, "ask"));
  }

  private IllegalStateException illegal(String question, String transition) {
    return new IllegalStateException("reconciliation " + id + " (" + status + "): cannot " + transition + " "
        + question);
  }

  /** The report with {@code changed} in place of its shortcode's question, closed when nothing is left waiting. */
  private BalanceReconciliation with(Question changed, Instant now) {
    if (status != Status.OPEN) {
      throw illegal(changed.shortcode(), "change a closed report's");
    }
    List<Question> next = new ArrayList<>();
    questions.forEach(q -> next.add(q.shortcode().equals(changed.shortcode()) ? changed : q));
    BalanceReconciliation changedReport = new BalanceReconciliation(id, date, trigger, status, askedAt, deadline,
        ledgerTotal, platformFunds, inFlightAmount, inFlightPayouts, next, null, null, version + 1);
    return now == null ? changedReport : changedReport.closeIfSettled(now);
  }

  private BalanceReconciliation closeIfSettled(Instant now) {
    if (questions.stream().anyMatch(Question::waiting)) {
      return this;
    }
    if (questions.stream().anyMatch(q -> q.state() != QuestionState.ANSWERED)) {
      return new BalanceReconciliation(id, date, trigger, Status.INCOMPLETE, askedAt, deadline, ledgerTotal,
          platformFunds, inFlightAmount, inFlightPayouts, questions, null, now, version);
    }
    FundsComparison compared = FundsComparison.of(held(), ledgerTotal, platformFunds, inFlightAmount);
    return new BalanceReconciliation(id, date, trigger, compared.matched() ? Status.MATCHED : Status.DIFFERENT,
        askedAt, deadline, ledgerTotal, platformFunds, inFlightAmount, inFlightPayouts, questions, compared, now,
        version);
  }
}
