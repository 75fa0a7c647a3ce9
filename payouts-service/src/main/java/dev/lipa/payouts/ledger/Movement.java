package dev.lipa.payouts.ledger;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * One change of one account: {@code amount} (positive) of {@code kind}, caused by {@code requestId} (a payout's
 * requestId, a collection's requestId or eventId, a transfer's requestId, a top-up's id).
 */
public record Movement(OrganisationId organisationId, Currency currency, MovementKind kind, String requestId,
    BigDecimal amount) {

  public Movement {
    Objects.requireNonNull(organisationId, "organisationId");
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(requestId, "requestId");
    if (amount == null || amount.signum() <= 0) {
      throw new IllegalArgumentException("a movement moves a positive amount");
    }
  }

  /** The entry's id and the movement's dedupe key: unique per request and kind. */
  public String id() {
    return requestId + ":" + kind.idSuffix();
  }

  String accountId() {
    return LedgerAccounts.accountId(organisationId, currency);
  }
}
