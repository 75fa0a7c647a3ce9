package dev.lipa.payouts.ledger;

/** Tells the ledger whether a reservation still belongs to something (a stored payout); implemented by payouts. */
public interface ReservationOwners {

  /** True when a payout with this requestId exists for the organisation, in any state. */
  boolean owns(String organisationId, String requestId);
}
