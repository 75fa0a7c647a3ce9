package dev.lipa.payouts.ledger;

import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;

/**
 * What the platform owes its merchants in one currency, summed over every account of the ledger: what they may pay
 * out ({@code available}) and what accepted payouts hold until their outcome ({@code reserved}); the funds the
 * platform's shortcodes hold are compared with {@link #total()}.
 *
 * @param reservations how many payouts hold a reservation (in flight: their money may or may not have left yet)
 * @param accounts how many accounts were summed
 */
public record Liability(Currency currency, BigDecimal available, BigDecimal reserved, int reservations,
    int accounts) {

  /** Everything the platform owes in this currency: available plus reserved, exact. */
  public BigDecimal total() {
    return available.add(reserved);
  }
}
