package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RetryScheduleTests {

  private static final List<Duration> DEFAULT_DELAYS = List.of(Duration.ofSeconds(5), Duration.ofMinutes(5),
      Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10), Duration.ofHours(10));

  private final Clock clock = Clock.fixed(Instant.parse("2026-01-15T09:00:00Z"), ZoneOffset.UTC);
  private final Instant now = clock.instant();

  @Test
  void waitsExactlyTheConfiguredDelaysWithoutJitter() {
    RetrySchedule schedule = new RetrySchedule(DEFAULT_DELAYS, 0, new Random(1));

    List<Duration> waits = IntStream.rangeClosed(1, 7)
        .mapToObj(failed -> Duration.between(now, schedule.nextAttemptAt(failed, now).orElseThrow()))
        .toList();

    assertThat(waits).isEqualTo(DEFAULT_DELAYS);
  }

  @Test
  void givesUpAfterTheLastConfiguredDelay() {
    RetrySchedule schedule = new RetrySchedule(DEFAULT_DELAYS, 0.1, new Random(1));

    assertThat(schedule.maxAttempts()).isEqualTo(8);
    assertThat(schedule.nextAttemptAt(7, now)).isPresent();
    assertThat(schedule.nextAttemptAt(8, now)).isEmpty();
  }

  @Test
  void keepsEveryJitteredWaitWithinTenPercentOfItsDelay() {
    RetrySchedule schedule = new RetrySchedule(DEFAULT_DELAYS, 0.1, new Random(42));

    for (int round = 0; round < 200; round++) {
      for (int failed = 1; failed <= DEFAULT_DELAYS.size(); failed++) {
        long base = DEFAULT_DELAYS.get(failed - 1).toMillis();
        long wait = Duration.between(now, schedule.nextAttemptAt(failed, now).orElseThrow()).toMillis();
        assertThat(wait).isBetween(Math.round(base * 0.9), Math.round(base * 1.1));
      }
    }
  }

  @Test
  void spreadsRetriesOfCallbacksThatFailedTogether() {
    RetrySchedule schedule = new RetrySchedule(DEFAULT_DELAYS, 0.1, new Random(42));

    long distinct = IntStream.range(0, 50).mapToObj(i -> schedule.nextAttemptAt(1, now).orElseThrow())
        .distinct().count();

    assertThat(distinct).isGreaterThan(40);
  }

  @Test
  void isReproducibleWithTheSameSeed() {
    List<Instant> first = draws(new RetrySchedule(DEFAULT_DELAYS, 0.1, new Random(7)));
    List<Instant> second = draws(new RetrySchedule(DEFAULT_DELAYS, 0.1, new Random(7)));

    assertThat(first).isEqualTo(second);
  }

  @Test
  void waitsAsLongAsRetryAfterAsksWhenThatIsLongerThanTheSchedule() {
    RetrySchedule schedule = new RetrySchedule(DEFAULT_DELAYS, 0, new Random(1));

    assertThat(schedule.nextAttemptAt(1, now, Duration.ofSeconds(120))).contains(now.plusSeconds(120));
  }

  @Test
  void neverRetriesSoonerThanTheScheduleWhateverRetryAfterSays() {
    RetrySchedule schedule = new RetrySchedule(DEFAULT_DELAYS, 0, new Random(1));

    assertThat(schedule.nextAttemptAt(2, now, Duration.ofSeconds(1))).contains(now.plus(Duration.ofMinutes(5)));
  }

  @Test
  void capsRetryAfterAtTheConfiguredMaximum() {
    RetrySchedule schedule = new RetrySchedule(DEFAULT_DELAYS, 0, Duration.ofHours(24), new Random(1));

    assertThat(schedule.nextAttemptAt(1, now, Duration.ofDays(365))).contains(now.plus(Duration.ofHours(24)));
  }

  @Test
  void doesNotExtendTheScheduleForRetryAfter() {
    RetrySchedule schedule = new RetrySchedule(DEFAULT_DELAYS, 0, new Random(1));

    assertThat(schedule.nextAttemptAt(8, now, Duration.ofSeconds(10))).isEmpty();
  }

  @Test
  void refusesAttemptNumbersBelowOne() {
    RetrySchedule schedule = new RetrySchedule(DEFAULT_DELAYS, 0.1, new Random(1));

    assertThatThrownBy(() -> schedule.nextAttemptAt(0, now)).isInstanceOf(IllegalArgumentException.class);
  }

  private List<Instant> draws(RetrySchedule schedule) {
    return IntStream.rangeClosed(1, 7).mapToObj(failed -> schedule.nextAttemptAt(failed, now).orElseThrow()).toList();
  }
}
