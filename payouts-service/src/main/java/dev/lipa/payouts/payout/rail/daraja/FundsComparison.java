package dev.lipa.payouts.payout.rail.daraja;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The comparison of a reconciliation: what the platform's shortcodes hold against what the ledger says the platform
 * owes its merchants (and the platform's own money the operator keeps there), in exact decimals (never rounded:
 * amounts keep their decimals, and at least two are shown).
 *
 * <p><b>Matched</b> means {@code -inFlight <= difference <= 0}: the shortcodes hold everything the ledger owes and the
 * platform's own funds, less at most what payouts in flight may already have paid. An in-flight payout is reserved
 * in the ledger (owed until its result settles it) while its money may have left the shortcode already: the shortfall
 * it explains lies between nothing and its amount. Nothing explains a surplus: money on a shortcode that no
 * merchant's balance accounts for (a payment whose result never reached the ledger, a deposit, the platform's own
 * money not declared) is a difference to look at, as is a shortfall larger than every in-flight payout together.
 *
 * @param held the compared accounts of the shortcodes, summed
 * @param owed the ledger's liability: every merchant's available and reserved amounts
 * @param platformFunds the platform's own money the operator says it keeps on the compared accounts
 * @param inFlight what payouts in flight (reserved) hold, never negative
 * @param difference {@code held - owed - platformFunds}: negative when the shortcodes hold less than expected
 */
record FundsComparison(BigDecimal held, BigDecimal owed, BigDecimal platformFunds, BigDecimal inFlight,
    BigDecimal difference, boolean matched) {

  FundsComparison {
    Objects.requireNonNull(held, "held");
    Objects.requireNonNull(owed, "owed");
    Objects.requireNonNull(platformFunds, "platformFunds");
    Objects.requireNonNull(inFlight, "inFlight");
    if (inFlight.signum() < 0) {
      throw new IllegalArgumentException("in-flight payouts hold a negative amount: " + inFlight);
    }
  }

  /**
   * Compares what is held with what is owed and the platform's own funds, {@code inFlight} of what is owed reserved by
   * payouts in flight.
   */
  static FundsComparison of(BigDecimal held, BigDecimal owed, BigDecimal platformFunds, BigDecimal inFlight) {
    BigDecimal difference = held.subtract(owed).subtract(platformFunds);
    boolean matched = difference.signum() <= 0 && difference.compareTo(inFlight.negate()) >= 0;
    return new FundsComparison(money(held), money(owed), money(platformFunds), money(inFlight), money(difference),
        matched);
  }

  /**
   * An amount as reports show it: its exact value with at least two decimals ({@code 1E+3} is {@code 1000.00},
   * {@code 150.5} is {@code 150.50}, {@code 0.0001} stays as it is), so two reports of the same amounts read the same.
   */
  static BigDecimal money(BigDecimal amount) {
    BigDecimal stripped = amount.stripTrailingZeros();
    return stripped.setScale(Math.max(2, stripped.scale()));
  }
}
