package dev.lipa.common.rail;

/**
 * A payment refused before anything is written because no rail can carry it: a live service without a live rail
 * configured for it (the sandbox's simulators are never used in live). Answered 503 in the platform's envelope with
 * its message, which is safe to show the caller.
 */
public class RailUnavailableException extends RuntimeException {

  public RailUnavailableException(String message) {
    super(message, null, false, false);
  }

  /** No live rail for these payments, e.g. {@code "STK pushes"}. */
  public static RailUnavailableException noLiveRailFor(String payments) {
    return new RailUnavailableException("no live rail is configured for " + payments
        + " yet: nothing was sent and nothing was charged");
  }
}
