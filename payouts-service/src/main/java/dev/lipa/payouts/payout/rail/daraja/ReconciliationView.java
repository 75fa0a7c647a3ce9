package dev.lipa.payouts.payout.rail.daraja;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * A funds reconciliation as operators read it ({@code GET /admin/v1/daraja/balance-reconciliations}). Amounts are
 * exact, in KSH; {@code shortcodesTotal} and {@code difference} are there once every shortcode answered.
 *
 * @param platformFunds the platform's own money the shortcodes were expected to hold besides what the ledger owes
 * @param difference what the shortcodes hold less what the ledger owes and the platform's own funds (negative: they
 *     hold less)
 */
public record ReconciliationView(String id, LocalDate date, String trigger, String status, String currency,
    Instant askedAt, Instant answerDeadline, Instant closedAt, BigDecimal ledgerTotal, BigDecimal platformFunds,
    InFlight inFlightPayouts,
    BigDecimal shortcodesTotal, BigDecimal difference, List<Shortcode> shortcodes) {

  /** Payouts reserved in the ledger when the shortcodes were asked, whose results had not come. */
  public record InFlight(int count, BigDecimal amount) {
  }

  /** One shortcode's question and answer. */
  public record Shortcode(String shortcode, String state, String conversationId, Instant answeredAt,
      BigDecimal funds, String failure, List<AccountView> accounts) {
  }

  /** One M-Pesa account of a shortcode: {@code available} is what is compared, when {@code compared}. */
  public record AccountView(String name, String currency, BigDecimal available, List<BigDecimal> amounts,
      boolean compared) {
  }

  static ReconciliationView of(BalanceReconciliation r) {
    FundsComparison c = r.comparison();
    return new ReconciliationView(r.id(), r.date(), r.trigger().name(), r.status().name(), "KSH", r.askedAt(),
        r.deadline(), r.closedAt(), FundsComparison.money(r.ledgerTotal()), FundsComparison.money(r.platformFunds()),
        new InFlight(r.inFlightPayouts(), FundsComparison.money(r.inFlightAmount())),
        c == null ? null : c.held(), c == null ? null : c.difference(),
        r.questions().stream().map(q -> new Shortcode(q.shortcode(), q.state().name(), q.conversationId(),
            q.answeredAt(), q.funds(), q.failure(), q.accounts().stream().map(a -> new AccountView(a.name(),
                a.currency(), a.available(), a.amounts(), a.compared())).toList())).toList());
  }
}
