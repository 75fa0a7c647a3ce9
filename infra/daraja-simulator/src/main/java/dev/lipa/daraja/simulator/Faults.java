package dev.lipa.daraja.simulator;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The simulator's fault modes, set by a test and cleared by {@link DarajaSimulator#reset()}. Thread-safe: the
 * simulator's handlers read them while a test sets them.
 */
public final class Faults {

  /** What becomes of the callbacks and results Daraja would post. */
  public enum CallbackMode {
    /** Posted once, after {@link #callbackDelay}. */
    NORMAL,
    /** Never posted (Daraja never retries a callback: only a query finds the result). */
    NEVER,
    /** Posted twice. */
    TWICE,
    /** Posted once, after {@link #lateBy} instead of the normal delay. */
    LATE
  }

  volatile CallbackMode callbackMode = CallbackMode.NORMAL;
  volatile Duration callbackDelay = Duration.ofMillis(20);
  volatile Duration lateBy = Duration.ofSeconds(2);
  volatile Duration customerDelay = Duration.ofMillis(20);
  volatile long tokenLifetimeSeconds = 3599;
  volatile boolean spikeArrest;
  volatile int spikeArrestStatus = 503;
  volatile Duration answerDelay = Duration.ZERO;
  final AtomicInteger queriesBeingProcessed = new AtomicInteger();
  final AtomicInteger queriesStillUnderProcessing = new AtomicInteger();

  Faults() {
  }

  /** How callbacks and results are posted from now on. */
  public Faults callbacks(CallbackMode mode) {
    this.callbackMode = mode;
    return this;
  }

  /** How late a {@link CallbackMode#LATE} callback is. */
  public Faults lateBy(Duration delay) {
    this.lateBy = delay;
    return this;
  }

  /** How long the customer takes to answer a prompt (until then STK Query says "being processed"). */
  public Faults customerDelay(Duration delay) {
    this.customerDelay = delay;
    return this;
  }

  /** The lifetime of the tokens issued from now on ({@code expires_in}, a string in seconds). */
  public Faults tokenLifetimeSeconds(long seconds) {
    this.tokenLifetimeSeconds = seconds;
    return this;
  }

  /**
   * While on, every API request but OAuth is refused by the "spike arrest" policy: HTTP 503 (or the status given) with
   * {@code 500.003.02}, before it reaches M-Pesa (nothing is processed).
   */
  public Faults spikeArrest(boolean on) {
    this.spikeArrest = on;
    return this;
  }

  /** The HTTP status of the spike arrest answers (503 by default; Safaricom's table says 500). */
  public Faults spikeArrestStatus(int status) {
    this.spikeArrestStatus = status;
    return this;
  }

  /**
   * Every API request is processed as normal (money moves, the result is posted) and answered only after this delay:
   * a client with a shorter timeout sees a request that may have been received (UNKNOWN).
   */
  public Faults answerAfter(Duration delay) {
    this.answerDelay = delay;
    return this;
  }

  /** The next {@code n} STK queries answer "The transaction is being processed" whatever the push's state. */
  public Faults stkQueriesBeingProcessed(int n) {
    this.queriesBeingProcessed.set(n);
    return this;
  }

  /**
   * The next {@code n} STK queries answer HTTP 200 with ResultCode {@code 4999}, "The transaction is still under
   * processing", whatever the push's state: not on the portal's page, but what integrators report from live Daraja.
   */
  public Faults stkQueriesStillUnderProcessing(int n) {
    this.queriesStillUnderProcessing.set(n);
    return this;
  }

  void reset() {
    callbackMode = CallbackMode.NORMAL;
    callbackDelay = Duration.ofMillis(20);
    lateBy = Duration.ofSeconds(2);
    customerDelay = Duration.ofMillis(20);
    tokenLifetimeSeconds = 3599;
    spikeArrest = false;
    spikeArrestStatus = 503;
    answerDelay = Duration.ZERO;
    queriesBeingProcessed.set(0);
    queriesStillUnderProcessing.set(0);
  }
}
