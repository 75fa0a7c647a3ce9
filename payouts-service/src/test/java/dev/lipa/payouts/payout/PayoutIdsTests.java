package dev.lipa.payouts.payout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PayoutIdsTests {

  @Test
  void mintsDistinctGrowingIdsBelowTwoToThe53EvenInABurstWithinOneMillisecond() {
    PayoutIds ids = new PayoutIds(Clock.fixed(Instant.parse("2026-06-01T00:00:00Z"), ZoneOffset.UTC), 3);
    Set<Long> seen = new HashSet<>();
    long last = 0;
    for (int i = 0; i < 1000; i++) {
      long id = ids.next();
      assertThat(id).isGreaterThan(last).isLessThan(1L << 53);
      seen.add(id);
      last = id;
    }
    assertThat(seen).hasSize(1000);
  }
}
