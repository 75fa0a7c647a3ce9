package dev.lipa.common.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.testsupport.ManualTimeMeter;
import io.github.bucket4j.Bucket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LimitTests {

  @Test
  void aShareSpreadsTheRefillSoTheReplicasRatesAddUpExactly() {
    Limit limit = new Limit(100, 50, Duration.ofSeconds(1));
    Limit share = limit.sharedBy(2);
    assertThat(share).isEqualTo(new Limit(50, 50, Duration.ofSeconds(2)));
    assertThat(limit.sharedBy(1)).isSameAs(limit);
  }

  @Test
  void aShareKeepsAtLeastOneToken() {
    assertThat(Limit.perPeriod(3, Duration.ofMinutes(1)).sharedBy(4))
        .isEqualTo(new Limit(1, 3, Duration.ofMinutes(4)));
  }

  @Test
  void aBucketOfSeveralLimitsPassesOnlyWhileEachHasAToken() {
    ManualTimeMeter clock = new ManualTimeMeter();
    Bucket bucket = Bucket.builder()
        .addLimit(Limit.perPeriod(3, Duration.ofMinutes(1)).bandwidth())
        .addLimit(Limit.perPeriod(10, Duration.ofHours(1)).bandwidth())
        .withCustomTimePrecision(clock)
        .build();
    int passed = 0;
    for (int minute = 0; minute < 10; minute++) {
      for (int i = 0; i < 5; i++) {
        passed += bucket.tryConsume(1) ? 1 : 0;
      }
      clock.advance(Duration.ofMinutes(1));
    }
    // 3 a minute would allow 30 in ten minutes; 10 an hour (plus what it gave back meanwhile) holds it at 11
    assertThat(passed).isEqualTo(11);
  }

  @Test
  void timeToRefillIsHowLongAnEmptyBucketTakesToBeFull() {
    assertThat(new Limit(20, 1, Duration.ofHours(1)).timeToRefill()).isGreaterThan(Duration.ofHours(20))
        .isLessThan(Duration.ofHours(20).plusSeconds(1));
  }

  @Test
  void refusesNonsense() {
    assertThatThrownBy(() -> new Limit(0, 1, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Limit(1, 1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Limit.configuration(List.of())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void retryAfterIsWholeSecondsRoundedUpAndNeverZero() {
    assertThat(RateLimitExceededException.retryAfterSeconds(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(RateLimitExceededException.retryAfterSeconds(Duration.ZERO)).isEqualTo(1);
    assertThat(RateLimitExceededException.retryAfterSeconds(Duration.ofMillis(59_001))).isEqualTo(60);
    assertThat(RateLimitExceededException.retryAfterSeconds(Duration.ofSeconds(60))).isEqualTo(60);
  }
}
