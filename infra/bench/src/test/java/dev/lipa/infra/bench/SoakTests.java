package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SoakTests {

  private static final long START = 1_000_000L;
  private static final long MINUTE = Soak.WINDOW_MILLIS;

  /** Ten minutes of answers: {@code millis[i]} is the latency of every request due in minute i. */
  private static Soak soak(double[] millis, long[] pssMiB) {
    Soak soak = new Soak(millis.length * MINUTE, MINUTE);
    soak.startAt(START);
    for (int minute = 0; minute < millis.length; minute++) {
      for (int i = 0; i < 100; i++) {
        long due = START + minute * MINUTE + i * 500L;
        soak.answered("201", due + 10, due, (long) (millis[minute] * 1000));
      }
      soak.pss(minute, pssMiB[minute] << 20);
    }
    return soak;
  }

  /** The memory verdict: flat or not, the baseline's peak and the highest later peak, in MiB. */
  private static void assertMemory(Soak.Verdict verdict, boolean flat, long baselineMiB, long highestMiB) {
    assertThat(verdict.memoryFlat()).isEqualTo(flat);
    assertThat(verdict.baselinePss()).isEqualTo(baselineMiB << 20);
    assertThat(verdict.highestPss()).isEqualTo(highestMiB << 20);
  }

  private static long[] flat(int n, long mib) {
    long[] pss = new long[n];
    java.util.Arrays.fill(pss, mib);
    return pss;
  }

  @Test
  void holdsWhenNoLaterMinuteIsMoreThanAQuarterSlowerAndMemoryStaysWithinATenth() {
    Soak.Verdict verdict = soak(new double[] {200, 210, 190, 200, 205, 240, 249, 230, 220, 210},
        new long[] {1500, 1800, 1900, 1950, 2000, 2050, 2100, 2150, 2190, 2200}).verdict();

    assertThat(verdict.p99Held()).isTrue();
    assertThat(verdict.baselineP99Millis()).isBetween(209.0, 211.0);
    assertThat(verdict.worstP99Millis()).isBetween(248.0, 250.0);
    assertThat(verdict.worstWindow()).isEqualTo(6);
    assertMemory(verdict, true, 2000, 2200);
  }

  @Test
  void aMinuteMoreThanAQuarterSlowerIsNotHeld() {
    Soak.Verdict verdict = soak(new double[] {200, 200, 200, 200, 200, 200, 200, 200, 200, 600},
        flat(10, 2000)).verdict();

    assertThat(verdict.p99Held()).isFalse();
    assertThat(verdict.worstWindow()).isEqualTo(9);
  }

  @Test
  void memoryGrowingMoreThanATenthAfterTheBaselineIsNotFlat() {
    Soak.Verdict verdict = soak(new double[] {200, 200, 200, 200, 200, 200, 200, 200, 200, 200},
        new long[] {1900, 1950, 1960, 1964, 1964, 2100, 2300, 2600, 2900, 3261}).verdict();

    assertThat(verdict.p99Held()).isTrue();
    assertMemory(verdict, false, 1964, 3261);
  }

  @Test
  void aHeapSwingingWithinEachMinuteIsFlatWhateverPointOfTheSwingAReadingCatches() {
    Soak soak = soak(new double[] {200, 200, 200, 200, 200, 200, 200, 200, 200, 200},
        new long[] {2600, 2400, 2600, 2600, 2380, 2650, 2640, 2400, 2660, 2500});
    // the swing inside each minute: the store's collector grows its heap to 2,700 before it shrinks it again
    for (int minute = 0; minute < 10; minute++) {
      soak.pss(minute, 2700L << 20);
      soak.pss(minute, 2450L << 20);
    }

    assertMemory(soak.verdict(), true, 2700, 2700);
  }

  @Test
  void peaksThatClimbAfterTheBaselineAreNotFlatEvenWhenTheLastReadingsAreLow() {
    Soak soak = soak(new double[] {200, 200, 200, 200, 200, 200, 200, 200, 200, 200}, flat(10, 2000));
    soak.pss(7, 2300L << 20);

    assertMemory(soak.verdict(), false, 2000, 2300);
  }

  @Test
  void aShortSoakTakesItsFirstHalfAsTheBaselineAndIgnoresAnswersDueBeforeIt() {
    Soak soak = soak(new double[] {100, 100, 100, 400}, flat(4, 1000));
    // a warm-up straggler, due before the soak began: in no window
    soak.answered("201", START + 5, START - 1, 9_000_000);
    soak.answered("HTTP 503", START + 5, START + 5, 1000);

    assertThat(soak.baselineWindows()).isEqualTo(2);
    Soak.Verdict verdict = soak.verdict();
    assertThat(verdict.baselineP99Millis()).isBetween(99.0, 101.0);
    assertThat(verdict.p99Held()).isFalse();
  }
}
