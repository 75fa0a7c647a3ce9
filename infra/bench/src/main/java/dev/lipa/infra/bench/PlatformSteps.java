package dev.lipa.infra.bench;

import static dev.lipa.infra.bench.Report.say;

import java.util.ArrayList;
import java.util.List;

/** The measured steps against the platform: each rate of {@code --steps} in turn, with the CPU and JIT time it took. */
final class PlatformSteps {

  /** The steps, and each step's CPU by process and compile time, in the same order. */
  record Measured(List<Step> steps, List<ProcessCpu.Usage> cpu, List<JitTime.Usage> jit) {
  }

  private PlatformSteps() {
  }

  static Measured run(Run run, ProcessSamples samples, OpenLoad.Target platform) {
    List<Double> rates = run.options().steps();
    List<Step> steps = new ArrayList<>();
    List<ProcessCpu.Usage> cpu = new ArrayList<>();
    List<JitTime.Usage> jit = new ArrayList<>();
    for (int i = 0; i < rates.size(); i++) {
      ProcessCpu.Snapshot cpuBefore = samples.cpu(null);
      JitTime.Snapshot jitBefore = samples.jit();
      Step step = run.load().run(Report.rate(rates.get(i)) + "/s", i, rates.get(i), run.options().stepMillis(),
          platform);
      cpu.add(samples.cpu(null).since(cpuBefore));
      jit.add(samples.jit().since(jitBefore));
      steps.add(step);
      say(run.stepLine(step));
    }
    return new Measured(List.copyOf(steps), List.copyOf(cpu), List.copyOf(jit));
  }

  /** The steps' table again, once the callbacks have had their grace period. */
  static void printFinal(Run run, Measured measured) {
    say("");
    say("== platform, final figures per step (callbacks counted after the grace period)");
    say(Report.STEP_HEADER);
    for (Step step : measured.steps()) {
      say(run.stepLine(step));
    }
  }
}
