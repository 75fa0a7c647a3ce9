package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.util.Map;

/**
 * Every accepted push against the callbacks received: exactly one each is the rule; a push with none is lost, one with
 * several is duplicated (as a redelivery of one callback, the same webhook-id, or as new ones).
 */
record Reconciliation(long exactlyOne, long lost, long duplicated, long duplicatedAsNew, long extraCallbacks,
    long unexpected, long waitedMillis) {

  /** Waits (at most {@code graceMillis}) until every accepted push has a callback, then a little for duplicates. */
  static Reconciliation await(Map<String, Integer> acceptedStep, CallbackCounter callbacks, long graceMillis)
      throws InterruptedException {
    long started = System.currentTimeMillis();
    long deadline = started + graceMillis;
    while (System.currentTimeMillis() < deadline && missing(acceptedStep, callbacks) > 0) {
      Thread.sleep(250);
    }
    // a duplicate would come from a redelivery: give it a moment to show
    Thread.sleep(Math.min(3000, Math.max(500, graceMillis / 10)));
    long exactlyOne = 0;
    long lost = 0;
    long duplicated = 0;
    long duplicatedAsNew = 0;
    long extraCallbacks = 0;
    for (String requestId : acceptedStep.keySet()) {
      CallbackCounter.Received received = callbacks.get(requestId);
      if (received == null) {
        lost++;
      } else if (received.count.get() == 1) {
        exactlyOne++;
      } else {
        duplicated++;
        extraCallbacks += received.count.get() - 1;
        if (received.webhookIds.size() > 1) {
          duplicatedAsNew++;
        }
      }
    }
    long unexpected = callbacks.all().keySet().stream().filter(id -> !acceptedStep.containsKey(id)).count();
    return new Reconciliation(exactlyOne, lost, duplicated, duplicatedAsNew, extraCallbacks, unexpected,
        System.currentTimeMillis() - started);
  }

  private static long missing(Map<String, Integer> acceptedStep, CallbackCounter callbacks) {
    return acceptedStep.keySet().stream().filter(id -> callbacks.get(id) == null).count();
  }

  void print(long accepted, CallbackCounter callbacks) {
    print("reconciliation (every accepted push must get exactly one callback)", accepted, callbacks);
  }

  void print(String title, long accepted, CallbackCounter callbacks) {
    say("");
    say("== %s", title);
    say("  accepted (201): %d   with one callback: %d   lost: %d   duplicated: %d (extra callbacks %d)",
        accepted, exactlyOne, lost, duplicated, extraCallbacks);
    say("  callbacks received: %d   for requests the bench never saw accepted: %d   unreadable: %d   waited %.1f s",
        callbacks.total(), unexpected, callbacks.unreadable(), waitedMillis / 1000.0);
    say("  duplicated with more than one webhook-id (not a redelivery of one callback): %d", duplicatedAsNew);
  }
}
