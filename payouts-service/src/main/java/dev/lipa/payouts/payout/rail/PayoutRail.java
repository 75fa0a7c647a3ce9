package dev.lipa.payouts.payout.rail;

import dev.lipa.common.web.FieldErrors;

/**
 * The port to a rail that pays out (the sandbox simulator now; Safaricom Daraja B2C/B2B and the TZ/UG rails later).
 * Outcomes come back asynchronously through {@link PayoutOutcomeHandler}.
 */
public interface PayoutRail {

  /**
   * Refuses, before anything is reserved or stored, a payout this rail could not send as asked (a currency or a
   * business number it does not serve), naming the field in {@code errors}; may throw a
   * {@link dev.lipa.common.web.ApiException} when it cannot take this kind of payout now. {@code order} has no
   * requestId yet. The default takes every payout.
   */
  default void check(PayoutOrder order, FieldErrors errors) {
  }

  /** Asks the provider to pay. */
  void pay(PayoutOrder order);

  /** Asks again for the outcome of an order whose answer is overdue; must not pay a second time. */
  void queryOutcome(PayoutOrder order);
}
