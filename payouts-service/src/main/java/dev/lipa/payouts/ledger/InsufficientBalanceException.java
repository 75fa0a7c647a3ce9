package dev.lipa.payouts.ledger;

import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;

/** The available balance does not cover a reservation or a transfer; nothing was written. */
public final class InsufficientBalanceException extends RuntimeException {

  private final Currency currency;
  private final BigDecimal available;

  public InsufficientBalanceException(Currency currency, BigDecimal available) {
    super("insufficient balance: available " + available.toPlainString() + " " + currency.name(), null, false, false);
    this.currency = currency;
    this.available = available;
  }

  public Currency currency() {
    return currency;
  }

  public BigDecimal available() {
    return available;
  }
}
