package dev.lipa.payouts.payout;

/** A payout's status: PENDING until the rail's outcome moves it, exactly once, to SUCCESS or FAILED. */
public enum PayoutStatus {
  PENDING,
  SUCCESS,
  FAILED
}
