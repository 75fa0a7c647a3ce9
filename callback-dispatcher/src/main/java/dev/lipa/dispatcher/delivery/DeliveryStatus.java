package dev.lipa.dispatcher.delivery;

/** Where a callback delivery stands. */
public enum DeliveryStatus {
  /** Waiting for its next attempt (the first one included). */
  PENDING,
  /** A merchant answered 2xx; nothing more is sent. */
  DELIVERED,
  /** The schedule is used up or the callback cannot be sent at all; kept for operators to see and replay. */
  DEAD
}
