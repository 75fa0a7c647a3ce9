package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The performance targets are judged on sustained steps whose callbacks came within a second, never on peaks. */
class TargetsTests {

  private static final long MIB = 1024L * 1024;

  private static SideFigures.StepFigures step(double rate, boolean sustained, double toCallbackP99, double cpu) {
    return new SideFigures.StepFigures(rate, (int) rate + "/s", rate, sustained, 10, sustained ? 200 : 5_000, 900,
        toCallbackP99, cpu);
  }

  private static SideFigures side(SideFigures.StepFigures... steps) {
    return new SideFigures(List.of(steps), 5, 3, 0, 0);
  }

  @Test
  void aPeakThatWasNotSustainedNeitherMeetsTheRateNorCountsInTheRatio() {
    SideFigures platform = side(step(1_000, true, 400, 1.1), step(1_500, false, 300, 0.9));
    SideFigures reference = side(step(2_500, true, 100, 0.5));

    List<String> lines = Targets.judge(platform, reference, 0, 2_000 * MIB, "memory");

    assertThat(lines.get(0)).contains("MISSED  0.40 (1000/s against 2500/s)");
    assertThat(lines.get(1)).startsWith(">= 1200/s sustained on the memory backend").contains("MISSED  1000/s");
    assertThat(lines.get(2)).contains("holds").contains("1.10 ms at 1000/s");
    assertThat(lines.get(3)).contains("not judged on memory");
  }

  @Test
  void aSustainedStepWhoseCallbacksCameLateDoesNotMeetTheRate() {
    SideFigures platform = side(step(900, true, 400, 1.3), step(1_300, true, 1_400, 1.0));

    List<String> lines = Targets.judge(platform, null, 0, 2_000 * MIB, "h2 /var/lipa.mv.db");

    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith(">= 800/s sustained on the on-disk backend")
        .contains("holds   900/s (outcome -> callback p99 400 ms)");
    // the CPU is judged at the busiest sustained step, late callbacks or not
    assertThat(lines.get(1)).contains("holds   1.00 ms at 1300/s");
    assertThat(lines.get(2)).contains("holds   peak 2000 MiB");
  }

  @Test
  void aLostCallbackMissesTheRateHoweverFastAndTheOnDiskMemoryIsBounded() {
    SideFigures platform = side(step(1_300, true, 300, 1.5));

    List<String> lines = Targets.judge(platform, null, 1, 3_000 * MIB, "h2 /var/lipa.mv.db");

    assertThat(lines.get(0)).contains("MISSED  1300/s").contains("1 lost");
    assertThat(lines.get(1)).contains("MISSED  1.50 ms");
    assertThat(lines.get(2)).contains("MISSED  peak 3000 MiB");
  }

  @Test
  void withNoSustainedStepNothingIsJudgedOnCpuAndTheRatioNeedsAYardstick() {
    SideFigures platform = side(step(500, false, 300, 1.0));
    SideFigures reference = side(step(1_000, false, 300, 0.5));

    List<String> lines = Targets.judge(platform, reference, 0, MIB, "memory");

    assertThat(lines.get(0)).contains("not judged: the reference sustained no step");
    assertThat(lines.get(1)).contains("MISSED  0/s (no step sustained with callbacks within 1 s)");
    assertThat(lines.get(2)).contains("not judged: no sustained step");
  }
}
