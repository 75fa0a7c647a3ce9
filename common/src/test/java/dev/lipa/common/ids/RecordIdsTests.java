package dev.lipa.common.ids;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecordIdsTests {

  @Test
  void mintsPositiveIdsBelowTwoToThe53() {
    RecordIds ids = new RecordIds(Clock.fixed(Instant.parse("2094-01-01T00:00:00Z"), ZoneOffset.UTC), 255);

    long id = ids.next();

    assertThat(id).isPositive().isLessThan(1L << 53);
  }

  @Test
  void mintsDistinctIncreasingIdsEvenWithinOneMillisecond() {
    RecordIds ids = new RecordIds(Clock.fixed(Instant.parse("2026-03-01T09:00:00Z"), ZoneOffset.UTC), 3);
    Set<Long> seen = new HashSet<>();
    long previous = 0;

    for (int i = 0; i < 10_000; i++) {
      long id = ids.next();
      assertThat(id).isGreaterThan(previous);
      assertThat(seen.add(id)).isTrue();
      previous = id;
    }
  }

  @Test
  void replicasWithDifferentNodesNeverMintTheSameId() {
    Clock clock = Clock.fixed(Instant.parse("2026-03-01T09:00:00Z"), ZoneOffset.UTC);
    RecordIds first = new RecordIds(clock, 1);
    RecordIds second = new RecordIds(clock, 2);
    Set<Long> seen = new HashSet<>();

    for (int i = 0; i < 1_000; i++) {
      assertThat(seen.add(first.next())).isTrue();
      assertThat(seen.add(second.next())).isTrue();
    }
  }

  @Test
  void laterTimesGiveLargerIds() {
    long earlier = new RecordIds(Clock.fixed(Instant.parse("2026-03-01T09:00:00Z"), ZoneOffset.UTC), 255).next();
    long later = new RecordIds(Clock.fixed(Instant.parse("2026-03-01T09:00:00.001Z"), ZoneOffset.UTC), 0).next();

    assertThat(later).isGreaterThan(earlier);
  }
}
