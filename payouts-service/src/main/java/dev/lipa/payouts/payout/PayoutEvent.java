package dev.lipa.payouts.payout;

import java.util.UUID;

/** What a payout's transitions cause; the store writes them with the state change, the outbox publishes them. */
public sealed interface PayoutEvent {

  Payout payout();

  /** The payout was accepted and its amount reserved: the rail is to pay it. */
  record Accepted(Payout payout) implements PayoutEvent {
  }

  /** The rail's outcome was applied: SUCCESS or FAILED. */
  record Completed(Payout payout) implements PayoutEvent {
  }

  /** The merchant's callbackUrl is to be told the outcome. */
  record CallbackRequested(Payout payout, UUID callbackId) implements PayoutEvent {
  }
}
