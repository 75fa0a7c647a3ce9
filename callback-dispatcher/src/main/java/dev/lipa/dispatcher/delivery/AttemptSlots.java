package dev.lipa.dispatcher.delivery;

import java.util.concurrent.Semaphore;

/**
 * Caps how many attempts are in flight, so slow merchants hold at most this many virtual threads and sockets. A slot
 * is taken before a delivery is claimed, never after: nothing is ever leased that cannot start at once. Per-host
 * limits (one dead merchant never starving the others) add a second, per-destination permit: {@link HostGate}.
 */
final class AttemptSlots {

  private final Semaphore slots;

  AttemptSlots(int max) {
    this.slots = new Semaphore(max);
  }

  boolean tryAcquire() {
    return slots.tryAcquire();
  }

  int available() {
    return slots.availablePermits();
  }

  void release() {
    slots.release();
  }
}
