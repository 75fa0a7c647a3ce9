package dev.lipa.checkout.session;

/** A transition the session's current state does not allow (late, duplicated or out of order). */
public class IllegalTransitionException extends RuntimeException {

  public IllegalTransitionException(String message) {
    super(message, null, false, false);
  }
}
