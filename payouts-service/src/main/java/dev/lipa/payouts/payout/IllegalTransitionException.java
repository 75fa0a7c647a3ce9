package dev.lipa.payouts.payout;

/** A transition the payout's state does not allow (for example a second outcome). */
public final class IllegalTransitionException extends RuntimeException {

  public IllegalTransitionException(String message) {
    super(message, null, false, false);
  }
}
