package dev.lipa.collections.stk.rail;

/** Where rails report outcomes; implemented by the STK feature. */
public interface StkOutcomeHandler {

  /**
   * Applies an outcome to its PENDING push. Returns false, changing and emitting nothing, when the push is unknown or
   * already completed (a late or duplicate outcome).
   */
  boolean apply(StkRailOutcome outcome);
}
