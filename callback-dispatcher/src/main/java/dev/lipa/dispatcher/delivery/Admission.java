package dev.lipa.dispatcher.delivery;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Who may start an attempt now: a global {@link AttemptSlots} slot and room at the destination's {@link HostGate},
 * counting the attempts under way per destination (reserved at intake or claim, waiting or in flight), so that a burst
 * of one poll never overshoots before its attempts reach the gate. Owns that count; waits only on the intake's thread.
 */
final class Admission {

  /** The most one intake poll waits for room in all, far inside Kafka's max.poll.interval. */
  private static final Duration MAX_INTAKE_WAIT = Duration.ofSeconds(3);
  /**
   * The pace (200 callbacks/s) a destination must keep for the intake to go on waiting for its room. Lenient enough
   * that a fast receiver on a CPU-starved machine is still waited for: a request the intake gives up on costs a
   * claim, and the poller works through a single destination's backlog far slower than the intake does.
   */
  private static final Duration MIN_PACE = Duration.ofMillis(5);
  /** How long, once there is some room, the intake waits for more to store the next part of a poll in one write. */
  private static final Duration CHUNK_WAIT = Duration.ofMillis(20);
  private static final Duration ADMISSION_RECHECK = Duration.ofMillis(1);

  private final AttemptSlots slots;
  private final HostGate gate;
  private final Duration hostPermitWait;
  /** Attempts admitted and not yet ended, per destination. */
  private final Map<String, Integer> underWay = new ConcurrentHashMap<>();
  private volatile boolean closed;

  Admission(AttemptSlots slots, HostGate gate, Duration hostPermitWait) {
    this.slots = slots;
    this.gate = gate;
    this.hostPermitWait = hostPermitWait;
  }

  /**
   * Whether one more attempt to this destination can be handed out now without being deferred at its gate: its
   * circuit is not open and fewer attempts to it are under way than it lets in or wait.
   */
  boolean hasRoom(String destination) {
    return room(destination) > 0;
  }

  /** Whether the destination's circuit is open: waiting for room there is pointless. */
  boolean circuitOpen(String destination) {
    return gate.isOpen(destination);
  }

  /** Takes a global slot and a place at the destination, if both are free. */
  boolean tryAdmit(String destination) {
    if (!hasRoom(destination) || !slots.tryAcquire()) {
      return false;
    }
    underWay.merge(destination, 1, Integer::sum);
    return true;
  }

  /**
   * Waits for room at the destination and a free slot. Once there is some room it still waits a moment for room for
   * a good part of what is left of the poll, so that the poll is stored in a few bulk writes, not one per request.
   * Time spent with no room at all counts against the destination's allowance ({@link IntakeWaits}). Gives up at once
   * when the destination's circuit is open or admission is closed.
   */
  boolean awaitAdmission(String destination, int left, IntakeWaits waits) {
    int wanted = Math.max(1, Math.min(left, gate.capacity() / 2));
    long start = System.nanoTime();
    long last = start;
    while (!closed && !gate.isOpen(destination)) {
      long now = System.nanoTime();
      int room = Math.min(room(destination), slots.available());
      if (room == 0) {
        if (waits.spend(destination, now - last)) {
          return false;
        }
      } else if ((room >= wanted || now - start >= CHUNK_WAIT.toNanos()) && tryAdmit(destination)) {
        return true;
      }
      last = now;
      LockSupport.parkNanos(ADMISSION_RECHECK.toNanos());
    }
    return false;
  }

  /** The waits of one intake poll, to pass to {@link #awaitAdmission}. */
  IntakeWaits intakeWaits() {
    return new IntakeWaits();
  }

  /** Gives back what {@link #tryAdmit} took, when the attempt never starts. */
  void release(String destination) {
    leave(destination);
    slots.release();
  }

  /** The attempt is done with its destination (its permit there is back); its global slot may still be held. */
  void leave(String destination) {
    underWay.computeIfPresent(destination, (d, n) -> n <= 1 ? null : n - 1);
  }

  /** The attempt has ended: its global slot is free again. */
  void ended() {
    slots.release();
  }

  int freeSlots() {
    return slots.available();
  }

  /** Stops admitting from the intake's waits: shutting down. */
  void close() {
    closed = true;
  }

  private int room(String destination) {
    return gate.isBlocked(destination) ? 0 : gate.capacity() - underWay.getOrDefault(destination, 0);
  }

  /**
   * How long one intake poll may wait for room, per destination and in all. A destination may hold the poll up for
   * {@code hostPermitWait}, plus {@link #MIN_PACE} for each of its callbacks admitted in this poll: one that keeps
   * pace with the intake is waited for (its backlog stays in Kafka), a slow or hanging one soon is not, and its
   * callbacks go to the store for the poller so that everyone else's keep flowing.
   */
  final class IntakeWaits {

    private final Map<String, long[]> perDestination = new HashMap<>();
    private long total;

    void admitted(String destination) {
      perDestination.computeIfAbsent(destination, d -> new long[2])[1]++;
    }

    /** Records time spent without room; true when the destination's (or the poll's) allowance is used up. */
    boolean spend(String destination, long nanos) {
      long[] spentAndAdmitted = perDestination.computeIfAbsent(destination, d -> new long[2]);
      spentAndAdmitted[0] += nanos;
      total += nanos;
      long allowance = hostPermitWait.toNanos() + spentAndAdmitted[1] * MIN_PACE.toNanos();
      return spentAndAdmitted[0] >= allowance || total >= MAX_INTAKE_WAIT.toNanos();
    }
  }
}
