package dev.lipa.payouts.topup;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.ledger.Balance;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * A sandbox top-up of one organisation's account: PENDING once stored, APPLIED once its ledger movement
 * ({@code <requestId>:top-up}) is in, with the balance right after it (what the first answer showed, so a repeat of
 * the request is answered the same).
 *
 * @param referenceId the caller's referenceId, or null
 * @param balanceAfter the account's balance right after the movement; null while PENDING
 */
public record TopUp(RequestId requestId, OrganisationId organisationId, Currency currency, BigDecimal amount,
    String referenceId, Status status, Balance balanceAfter, Instant createdAt, Instant updatedAt) {

  /** Where a top-up stands. */
  public enum Status { PENDING, APPLIED }

  TopUp applied(Balance after, Instant now) {
    if (status != Status.PENDING) {
      throw new IllegalStateException("top-up " + requestId + " is " + status + " already");
    }
    return new TopUp(requestId, organisationId, currency, amount, referenceId, Status.APPLIED, after, createdAt, now);
  }
}
