package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The reference payment's steps (the platform's essential work per payment, on its store and broker: see
 * {@link ReferencePipeline}), reconciled as the platform's are (its callbacks come to the bench's receiver, on a path
 * of their own, and each one's signature is checked), with the work it did per payment counted over its own database
 * and topics only; its scratch database is dropped afterwards.
 */
final class ReferenceRun {

  /** The reference's databases as the store's counters name them; "(server)" when only server-wide ones exist. */
  static final Predicate<String> DATABASES = db -> db.equals(ReferencePipeline.DATABASE) || db.equals("(server)");
  /** Time for the last delivery inserts (each follows its callback) and the ledger's last tick. */
  private static final long SETTLE_MILLIS = 1000;

  /** Its figures, and whether every accepted payment got exactly one callback with a valid signature. */
  record Result(SideFigures figures, boolean ok, String problem) {
  }

  private ReferenceRun() {
  }

  /**
   * Runs the reference steps (after its warm-up when {@code warmUp}), waits for their callbacks, prints their tables,
   * reconciliation, work and CPU, and returns its figures. {@code run} is the reference's: its callback counter, its
   * outcomes (read from its own topic) and its accepted payments.
   */
  static Result run(Run run, ProcessSamples samples, ReferenceProcess reference, boolean warmUp) throws Exception {
    BenchOptions options = run.options();
    OpenLoad.Target target = StkRequests.reference(reference.url(), run.callbacks().url(), run.acceptedStep());
    say("");
    say("== reference payment (%s): accept, outcome %s ms later, ledger credit, signed callback and delivery;"
        + " same store and broker", reference.url(), reference.outcomeDelay().toMillis());
    say(Report.STEP_HEADER);
    WorkCounters before = WorkCounters.read(run.probe());
    if (warmUp && options.referenceWarmupMillis() > 0) {
      Step warmup = run.load().run("warm-up", -1, options.warmupRate(), options.referenceWarmupMillis(), target);
      say(run.stepLine(warmup) + "   (not counted)");
    }
    List<Step> steps = new ArrayList<>();
    List<ProcessCpu.Usage> cpu = new ArrayList<>();
    for (int i = 0; i < options.referenceSteps().size(); i++) {
      double rate = options.referenceSteps().get(i);
      ProcessCpu.Snapshot cpuBefore = samples.cpu(reference);
      Step step = run.load().run(Report.rate(rate) + "/s", i, rate, options.stepMillis(), target);
      cpu.add(samples.cpu(reference).since(cpuBefore));
      steps.add(step);
      say(run.stepLine(step));
    }
    Reconciliation reconciliation = Reconciliation.await(run.acceptedStep(), run.callbacks(), options.graceMillis());
    Thread.sleep(SETTLE_MILLIS);
    WorkCounters.Work work = WorkCounters.read(run.probe()).since(before);
    long accepted = run.acceptedStep().size();

    say("");
    say("== reference payment, final figures per step (callbacks counted after the grace period)");
    say(Report.STEP_HEADER);
    steps.forEach(step -> say(run.stepLine(step)));
    reconciliation.print("reference payment: reconciliation (exactly one callback each, signed)", accepted,
        run.callbacks());
    long badSignatures = run.callbacks().badSignatures();
    say("  callbacks whose webhook-signature did not verify with the reference's secret: %d", badSignatures);
    long writes = work.writesIn(DATABASES);
    long records = work.recordsIn(ReferenceTopic.topics()::contains);
    say("  reference work per payment (%d accepted, warm-up included; its own database and topics): store writes"
        + " %s, Kafka records %s; its own RSS %s", accepted,
        work.writes().available() ? Report.perPayment(writes, accepted) : "not counted by this store",
        Report.perPayment(records, accepted), Report.mib(PlatformProbe.residentOf(reference.pid())));
    work.writes().perDatabase().forEach((db, n) -> {
      if (DATABASES.test(db)) {
        say("    %-28s %8d  %s per payment", db, n, Report.perPayment(n, accepted));
      }
    });
    work.records().forEach((topic, n) -> {
      if (ReferenceTopic.topics().contains(topic)) {
        say("    %-28s %8d  %s per payment", topic, n, Report.perPayment(n, accepted));
      }
    });
    say("  reference CPU per accepted payment (ms, by process; the idle services' background work included):");
    CpuReport.printCpu(steps, cpu);
    // the reference's documents are scratch data: on the memory backend they would only crowd the store's heap
    run.probe().dropDatabase(ReferencePipeline.DATABASE);

    SideFigures figures = new SideFigures(SideFigures.of(steps, cpu, run, SideFigures.REFERENCE_PROCESSES),
        work.writes().available() ? WorkCounters.perPayment(writes, accepted) : Double.NaN,
        WorkCounters.perPayment(records, accepted), reconciliation.lost(), reconciliation.duplicated());
    boolean ok = accepted > 0 && reconciliation.lost() == 0 && reconciliation.duplicated() == 0 && badSignatures == 0;
    return new Result(figures, ok, ok ? null : String.format(Locale.ROOT,
        "reference: %d accepted, %d lost, %d duplicated, %d bad signatures", accepted, reconciliation.lost(),
        reconciliation.duplicated(), badSignatures));
  }
}
