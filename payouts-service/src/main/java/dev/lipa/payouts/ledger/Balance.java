package dev.lipa.payouts.ledger;

import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;

/** An account's balance: what may be paid out now and what accepted payouts hold until their outcome. */
public record Balance(Currency currency, BigDecimal available, BigDecimal reserved) {
}
