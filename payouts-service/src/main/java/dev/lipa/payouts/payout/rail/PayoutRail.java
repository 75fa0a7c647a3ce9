package dev.lipa.payouts.payout.rail;

/**
 * The port to a rail that pays out (the sandbox simulator now; Safaricom Daraja B2C/B2B and the TZ/UG rails later).
 * Outcomes come back asynchronously through {@link PayoutOutcomeHandler}.
 */
public interface PayoutRail {

  /** Asks the provider to pay. */
  void pay(PayoutOrder order);

  /** Asks again for the outcome of an order whose answer is overdue; must not pay a second time. */
  void queryOutcome(PayoutOrder order);
}
