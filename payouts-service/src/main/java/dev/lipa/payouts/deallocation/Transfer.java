package dev.lipa.payouts.deallocation;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * A movement of funds between a parent organisation and one of its sub-accounts: an allocation (parent to
 * sub-account) or a de-allocation (sub-account back to its parent). PENDING while its two ledger legs are applied,
 * then SUCCESS. A transfer the paying account cannot cover is removed, not kept (a refused request writes nothing);
 * FAILED is only found on transfers stored before that rule.
 *
 * @param referenceId the caller's referenceId, or null
 */
public record Transfer(RequestId requestId, Type type, OrganisationId parentOrganisationId,
    OrganisationId subAccountId, OrganisationId initiatedBy, Currency currency, BigDecimal amount, String referenceId,
    Status status, Instant createdAt, Instant updatedAt) {

  /** Which way the money goes. */
  public enum Type { ALLOCATION, DEALLOCATION }

  /** The spec's de-allocation statuses. */
  public enum Status { PENDING, SUCCESS, FAILED }

  /** The organisation whose account pays. */
  public OrganisationId payer() {
    return type == Type.ALLOCATION ? parentOrganisationId : subAccountId;
  }

  /** The organisation whose account receives. */
  public OrganisationId payee() {
    return type == Type.ALLOCATION ? subAccountId : parentOrganisationId;
  }

  Transfer with(Status next, Instant now) {
    if (status != Status.PENDING) {
      throw new IllegalStateException("transfer " + requestId + " is " + status + " already");
    }
    return new Transfer(requestId, type, parentOrganisationId, subAccountId, initiatedBy, currency, amount,
        referenceId, next, createdAt, now);
  }
}
