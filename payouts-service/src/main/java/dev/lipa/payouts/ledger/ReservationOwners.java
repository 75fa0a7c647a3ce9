package dev.lipa.payouts.ledger;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;

/** Tells the ledger whether a reservation still belongs to something (a stored payout); implemented by payouts. */
public interface ReservationOwners {

  /** True when a payout with this requestId exists for the organisation, in any state. */
  boolean owns(OrganisationId organisationId, RequestId requestId);
}
