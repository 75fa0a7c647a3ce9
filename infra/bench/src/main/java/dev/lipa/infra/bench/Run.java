package dev.lipa.infra.bench;

import java.util.Map;

/**
 * What every phase of a bench run shares: its options, the load generator, the probe of the platform's processes, the
 * callback receiver, the outcome events read from Kafka, and the request id of every accepted push with its step.
 */
record Run(BenchOptions options, OpenLoad load, PlatformProbe probe, CallbackCounter callbacks, OutcomeWatcher outcomes,
    Map<String, Integer> acceptedStep) {

  /** A step's line of the platform's table, its callbacks counted as they stand now. */
  String stepLine(Step step) {
    return Report.stepLine(step, callbacks, outcomes, acceptedStep);
  }
}
