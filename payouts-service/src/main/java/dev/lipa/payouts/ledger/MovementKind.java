package dev.lipa.payouts.ledger;

import java.util.Locale;

/**
 * The kinds of ledger movement and what each does to an account: {@code available} and {@code reserved} change by
 * the amount times these signs. A movement's entry id is {@code <requestId>:<kind in lower case>}, so an entry is
 * unique per request and kind.
 */
public enum MovementKind {

  /** A sandbox account's test float, written once when the account is created. */
  OPENING(1, 0, Guard.NONE),
  /** A sandbox top-up ({@code POST /balance/top-up}). */
  TOP_UP(1, 0, Guard.NONE),
  /**
   * A successful collection (STK or bank, from {@code payments.collections.v1}) or a card payment through the hosted
   * checkout (from {@code payments.checkout.v1}).
   */
  CREDIT(1, 0, Guard.NONE),
  /** A payout accepted: its amount moves from available to reserved; refused when available does not cover it. */
  RESERVE(-1, 1, Guard.AVAILABLE_COVERS),
  /** A payout succeeded: its reservation leaves the account. */
  SETTLE(0, -1, Guard.HOLD_EXISTS),
  /** A payout failed (or never got stored): its reservation returns to available. */
  RELEASE(1, -1, Guard.HOLD_EXISTS),
  /** A transfer between a parent and a sub-account leaves this account. */
  TRANSFER_OUT(-1, 0, Guard.AVAILABLE_COVERS),
  /** A transfer between a parent and a sub-account reaches this account. */
  TRANSFER_IN(1, 0, Guard.NONE);

  /** What the account must show for the movement to apply. */
  enum Guard { NONE, AVAILABLE_COVERS, HOLD_EXISTS }

  private final int availableSign;
  private final int reservedSign;
  private final Guard guard;

  MovementKind(int availableSign, int reservedSign, Guard guard) {
    this.availableSign = availableSign;
    this.reservedSign = reservedSign;
    this.guard = guard;
  }

  int availableSign() {
    return availableSign;
  }

  int reservedSign() {
    return reservedSign;
  }

  Guard guard() {
    return guard;
  }

  String idSuffix() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
