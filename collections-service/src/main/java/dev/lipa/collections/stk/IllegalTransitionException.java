package dev.lipa.collections.stk;

/** A transition the push's current state does not allow (a late, duplicate or backward outcome). */
public class IllegalTransitionException extends RuntimeException {

  public IllegalTransitionException(String message) {
    super(message, null, false, false);
  }
}
