package dev.lipa.payouts.ledger;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;

/** One immutable movement of the journal: what changed the account's available and reserved amounts, and why. */
public record LedgerEntry(String id, OrganisationId organisationId, Currency currency, MovementKind kind,
    String requestId, BigDecimal amount, BigDecimal availableChange, BigDecimal reservedChange, Instant at) {
}
