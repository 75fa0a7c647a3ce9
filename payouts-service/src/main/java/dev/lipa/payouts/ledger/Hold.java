package dev.lipa.payouts.ledger;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;

/** A reservation as its account holds it. */
record Hold(OrganisationId organisationId, Currency currency, String requestId, BigDecimal amount) {
}
