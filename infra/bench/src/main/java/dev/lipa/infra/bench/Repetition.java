package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.util.Map;
import java.util.function.Predicate;

/**
 * One measured run of the bench, after the warm-up: the platform's steps (with the store-kill probe when asked), their
 * reconciliation, work, CPU and memory; then the reference payment's steps ({@link ReferenceRun}); the two side by side
 * ({@link Comparison}) and the targets ({@link Targets}). {@code --repeat} runs it several times.
 */
final class Repetition {

  /** The platform's databases as the store's counters name them: all but the reference's. */
  static final Predicate<String> PLATFORM_DATABASES = db -> !db.equals(ReferencePipeline.DATABASE);
  /** Time for the dispatcher to write each delivery's result, which it does just after the callback. */
  private static final long SETTLE_MILLIS = 2000;

  /**
   * What a run measured ({@code reference} null when the reference did not run) and, when it failed (an accepted
   * payment without exactly one callback, a bad signature, a 500 in the store's outage), why.
   */
  record Result(SideFigures platform, SideFigures reference, String failure) {

    boolean ok() {
      return failure == null;
    }
  }

  /** What is the same in every repetition. */
  record Shared(ProcessSamples samples, ReferenceProcess reference, String backend, Map<String, Long> memoryBefore) {
  }

  private Repetition() {
  }

  /**
   * Measures one run. {@code run} and {@code referenceRun} (null without the reference) hold this run's callback
   * counters and accepted payments; {@code before} is the work counters' reading its payments are counted from (before
   * the warm-up for the first run, whose warm-up payments count as the platform's, and whose memory peak includes the
   * warm-up's); the reference warms up in the first run only; {@code storeKill} is the probe already under way, or
   * null.
   */
  static Result measure(String title, Shared shared, Run run, OpenLoad.Target platform, WorkCounters before,
      Run referenceRun, boolean first, StoreKill storeKill) throws Exception {
    BenchOptions options = run.options();
    ProcessSamples samples = shared.samples();
    if (!first) {
      samples.restartPeak();
    }
    PlatformSteps.Measured measured = PlatformSteps.run(run, samples, platform);
    if (storeKill != null) {
      storeKill.awaitRestart();
    }
    Reconciliation reconciliation = Reconciliation.await(run.acceptedStep(), run.callbacks(), options.graceMillis());
    Thread.sleep(SETTLE_MILLIS);
    WorkCounters.Work work = WorkCounters.read(run.probe()).since(before);
    Map<String, Long> memoryAfter = run.probe().residentMemory();
    long accepted = run.acceptedStep().size();

    PlatformSteps.printFinal(run, measured);
    reconciliation.print(accepted, run.callbacks());
    if (storeKill != null) {
      storeKill.print();
    }
    say("");
    say("== work per accepted payment (%d accepted, warm-up included; counted by the store and the broker)", accepted);
    Report.printWrites(work.writes(), accepted, ReferencePipeline.DATABASE);
    Report.printRecords(work.records(), accepted, ReferenceTopic.topics());
    say("");
    say("== CPU per accepted payment, by process (ms of CPU time over each step, /proc/<pid>/stat)");
    CpuReport.printCpu(measured.steps(), measured.cpu());
    CpuReport.printJit(measured.steps(), measured.jit(), Runtime.getRuntime().availableProcessors());
    say("");
    say("== resident memory of the local platform (PSS of var/run/*.pid: shared pages counted once)");
    // the platform's own peak: the reference's scratch documents, which the store holds until the end of its run, are
    // not the platform's memory
    long peakMemory = samples.peakMemory();
    Report.printMemory(shared.memoryBefore(), memoryAfter, peakMemory);
    SideFigures platformFigures = new SideFigures(
        SideFigures.of(measured.steps(), measured.cpu(), run, SideFigures.PLATFORM_PROCESSES),
        work.writes().available() ? WorkCounters.perPayment(work.writesIn(PLATFORM_DATABASES), accepted) : Double.NaN,
        WorkCounters.perPayment(work.recordsIn(topic -> !ReferenceTopic.topics().contains(topic)), accepted),
        reconciliation.lost(), reconciliation.duplicated());
    String failure = failure(accepted, reconciliation, storeKill);

    SideFigures referenceFigures = null;
    if (referenceRun != null) {
      ReferenceRun.Result reference = ReferenceRun.run(referenceRun, samples, shared.reference(), first);
      referenceFigures = reference.figures();
      Comparison.printRun("platform beside the reference payment, " + title, platformFigures, referenceFigures);
      if (failure == null) {
        failure = reference.problem();
      }
    }
    say("");
    say("== targets, %s; store backend: %s", title, shared.backend());
    Targets.printTargets(platformFigures, referenceFigures, reconciliation.lost(), peakMemory, shared.backend());
    return new Result(platformFigures, referenceFigures, failure);
  }

  /**
   * Null when every accepted push got exactly one callback. With the store killed, a callback may be delivered twice
   * (its delivery was not recorded before the kill), but only as a redelivery of the same webhook-id, which merchants
   * deduplicate on; nothing may be lost, and the outage answers 503, never 500.
   */
  private static String failure(long accepted, Reconciliation reconciliation, StoreKill storeKill) {
    boolean ok = storeKill == null
        ? accepted > 0 && reconciliation.lost() == 0 && reconciliation.duplicated() == 0
        : accepted > 0 && reconciliation.lost() == 0 && reconciliation.duplicatedAsNew() == 0
            && storeKill.serverErrors() == 0;
    if (ok) {
      return null;
    }
    return accepted == 0 ? "no push was accepted"
        : "%d lost, %d duplicated callbacks, %d with new webhook-ids%s".formatted(reconciliation.lost(),
            reconciliation.duplicated(), reconciliation.duplicatedAsNew(),
            storeKill == null ? "" : ", " + storeKill.serverErrors() + " 5xx other than 503 in the outage");
  }
}
