package dev.lipa.payouts.payout.rail.daraja;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.payouts.ledger.Liability;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.payout.rail.daraja.BalanceReconciliation.Account;
import dev.lipa.payouts.payout.rail.daraja.BalanceReconciliation.QuestionState;
import dev.lipa.payouts.payout.rail.daraja.BalanceReconciliation.Status;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A reconciliation's transitions: asked, answered or failed once per shortcode, closed once. */
class BalanceReconciliationTests {

  private static final Instant NOW = Instant.parse("2026-03-02T00:00:00Z");
  private static final Duration WITHIN = Duration.ofMinutes(15);
  /** The ledger owes 1000.00, 150 of it reserved by two payouts in flight. */
  private static final Liability OWED = new Liability(Currency.KSH, new BigDecimal("850.00"), new BigDecimal("150"),
      2, 3);

  private static BalanceReconciliation asking(String... shortcodes) {
    return BalanceReconciliation.open("r1", LocalDate.of(2026, 3, 2), BalanceReconciliation.Trigger.SCHEDULED, OWED,
        BigDecimal.ZERO, List.of(shortcodes), NOW, WITHIN);
  }

  /** Account Balance's five accounts, the charges account left out of the comparison. */
  private static List<Account> holding(String working, String utility, String charges) {
    return List.of(account("Working Account", working, true), account("Float Account", "0.00", true),
        account("Utility Account", utility, true), account("Charges Paid Account", charges, false),
        account("Organization Settlement Account", "0.00", true));
  }

  private static Account account(String name, String available, boolean compared) {
    BigDecimal amount = new BigDecimal(available);
    return new Account(name, "KES", amount, List.of(amount, amount, BigDecimal.ZERO, BigDecimal.ZERO), compared);
  }

  @Test
  void matchesWhenEveryShortcodeAnsweredAndTheyHoldWhatTheLedgerOwes() {
    BalanceReconciliation report = asking("600100", "600200").asked("600100", "AG_1").asked("600200", "AG_2")
        .answered("AG_1", holding("700.00", "0.00", "-1540.00"), NOW)
        .answered("AG_2", holding("0", "300", "0"), NOW);

    assertThat(report.status()).isEqualTo(Status.MATCHED);
    assertThat(report.comparison().held()).isEqualByComparingTo("1000");
    assertThat(report.comparison().difference().toPlainString()).isEqualTo("0.00");
    assertThat(report.closedAt()).isEqualTo(NOW);
  }

  @Test
  void matchesAShortfallThatThePayoutsInFlightExplainAndNoMore() {
    BalanceReconciliation explained = asking("600100").asked("600100", "AG_1")
        .answered("AG_1", holding("850", "0", "0"), NOW);
    BalanceReconciliation beyond = asking("600100").asked("600100", "AG_1")
        .answered("AG_1", holding("849.99", "0", "0"), NOW);

    assertThat(explained.status()).isEqualTo(Status.MATCHED);
    assertThat(explained.comparison().difference()).isEqualByComparingTo("-150");
    assertThat(beyond.status()).isEqualTo(Status.DIFFERENT);
    assertThat(beyond.comparison().difference().toPlainString()).isEqualTo("-150.01");
  }

  @Test
  void staysOpenUntilEveryShortcodeAnswered() {
    BalanceReconciliation report = asking("600100", "600200").asked("600100", "AG_1").asked("600200", "AG_2")
        .answered("AG_1", holding("1000", "0", "0"), NOW);

    assertThat(report.status()).isEqualTo(Status.OPEN);
    assertThat(report.comparison()).isNull();
  }

  @Test
  void isIncompleteWhenAShortcodeFailsOrDoesNotAnswerInTime() {
    BalanceReconciliation failed = asking("600100", "600200").asked("600100", "AG_1")
        .failed("600200", "not asked: NOT_CONNECTED", NOW).answered("AG_1", holding("1000", "0", "0"), NOW);
    BalanceReconciliation late = asking("600100").asked("600100", "AG_1").expire(NOW.plus(WITHIN));

    assertThat(failed.status()).isEqualTo(Status.INCOMPLETE);
    assertThat(failed.comparison()).isNull();
    assertThat(late.status()).isEqualTo(Status.INCOMPLETE);
    assertThat(late.question("600100").orElseThrow().state()).isEqualTo(QuestionState.UNANSWERED);
  }

  @Test
  void closesAtOnceWithNoShortcodeToAsk() {
    assertThat(asking().status()).isEqualTo(Status.DIFFERENT);
    assertThat(asking().comparison().difference()).isEqualByComparingTo("-1000");
  }

  @Test
  void refusesAnAnswerToAQuestionNotAskedOrAnsweredAlreadyAndAnyChangeOnceClosed() {
    BalanceReconciliation open = asking("600100", "600200").asked("600100", "AG_1");
    BalanceReconciliation answered = open.answered("AG_1", holding("1000", "0", "0"), NOW);
    BalanceReconciliation closed = open.expire(NOW.plus(WITHIN));

    assertThatThrownBy(() -> open.answered("AG_2", holding("0", "0", "0"), NOW))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> answered.answered("AG_1", holding("1", "0", "0"), NOW))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> closed.asked("600200", "AG_2")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> open.expire(NOW)).as("before its deadline").isInstanceOf(IllegalStateException.class);
  }
}
