package dev.lipa.infra.bench;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * The store's write counters (per database) and the broker's end offsets (per topic) at one moment: two readings give
 * the work done in between, which the bench divides by the payments accepted. Each side counts only its own databases
 * and topics, so that the platform's figures never hold the reference payment's work or the reverse.
 */
record WorkCounters(PlatformProbe.StoreWrites writes, Map<String, Long> offsets) {

  /** The work between two readings: write statements per database and records per topic. */
  record Work(PlatformProbe.StoreWrites writes, Map<String, Long> records) {

    /** Write statements on the databases {@code databases} accepts. */
    long writesIn(Predicate<String> databases) {
      return writes.perDatabase().entrySet().stream().filter(e -> databases.test(e.getKey()))
          .mapToLong(Map.Entry::getValue).sum();
    }

    /** Records on the topics {@code topics} accepts. */
    long recordsIn(Predicate<String> topics) {
      return records.entrySet().stream().filter(e -> topics.test(e.getKey())).mapToLong(Map.Entry::getValue).sum();
    }
  }

  static WorkCounters read(PlatformProbe probe) throws InterruptedException, ExecutionException, TimeoutException {
    return new WorkCounters(probe.storeWrites(), probe.topicEndOffsets());
  }

  Work since(WorkCounters before) {
    return new Work(writes.minus(before.writes), Report.diff(offsets, before.offsets));
  }

  /** A count per payment; NaN when no payment was accepted (nothing to divide by). */
  static double perPayment(long count, long payments) {
    return payments <= 0 ? Double.NaN : (double) count / payments;
  }
}
