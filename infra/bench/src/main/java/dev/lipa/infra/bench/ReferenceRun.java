package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The reference pipeline's steps (insert and produce only, on the platform's store and broker) and the work it did per
 * payment, to compare the platform's throughput with; its scratch database is dropped afterwards.
 */
final class ReferenceRun {

  private ReferenceRun() {
  }

  /** Runs the reference steps and prints their table and work; returns the steps. */
  static List<Step> run(Run run, ProcessSamples samples, ReferenceProcess reference) throws Exception {
    BenchOptions options = run.options();
    PlatformProbe probe = run.probe();
    OpenLoad.Target target = StkRequests.reference(reference.url(), run.callbacks().url());
    say("");
    say("== reference pipeline: insert + produce only, same store and broker (%s)", reference.url());
    say(Report.STEP_HEADER);
    if (options.referenceWarmupMillis() > 0) {
      Step warmup = run.load().run("warm-up", -1, options.warmupRate(), options.referenceWarmupMillis(), target);
      say(Report.referenceLine(warmup) + "   (not counted)");
    }
    PlatformProbe.StoreWrites before = probe.storeWrites();
    Map<String, Long> offsets = probe.topicEndOffsets();
    List<Step> steps = new ArrayList<>();
    List<ProcessCpu.Usage> cpu = new ArrayList<>();
    for (int i = 0; i < options.referenceSteps().size(); i++) {
      double rate = options.referenceSteps().get(i);
      ProcessCpu.Snapshot cpuBefore = samples.cpu(reference);
      Step step = run.load().run(Report.rate(rate) + "/s", i, rate, options.stepMillis(), target);
      cpu.add(samples.cpu(reference).since(cpuBefore));
      steps.add(step);
      say(Report.referenceLine(step));
    }
    PlatformProbe.StoreWrites writes = probe.storeWrites().minus(before);
    Map<String, Long> records = Report.diff(probe.topicEndOffsets(), offsets);
    long accepted = steps.stream().mapToLong(s -> s.accepted.sum()).sum();
    say("  reference work per payment (%d accepted): store writes %s, Kafka records %s; its own RSS %s", accepted,
        Report.perPayment(writes.perDatabase().getOrDefault(ReferencePipeline.DATABASE, 0L), accepted),
        Report.perPayment(records.getOrDefault(ReferencePipeline.TOPIC, 0L), accepted),
        Report.mib(PlatformProbe.residentOf(reference.pid())));
    say("  reference CPU per accepted payment (ms, by process; the idle services' background work included):");
    CpuReport.printCpu(steps, cpu);
    // the reference's documents are scratch data: on the memory backend they would only crowd the store's heap
    probe.dropDatabase(ReferencePipeline.DATABASE);
    return List.copyOf(steps);
  }
}
