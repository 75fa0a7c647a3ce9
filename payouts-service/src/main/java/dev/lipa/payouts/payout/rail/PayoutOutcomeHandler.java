package dev.lipa.payouts.payout.rail;

/** Where rails report outcomes; implemented by the payouts feature. */
public interface PayoutOutcomeHandler {

  /**
   * Applies an outcome to its PENDING payout (ledger settlement or release, then the compare-and-set). Returns false,
   * changing nothing, when the payout is unknown or already completed.
   */
  boolean apply(PayoutRailOutcome outcome);
}
