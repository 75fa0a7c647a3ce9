package dev.lipa.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ratelimit.Limit;
import dev.lipa.common.testsupport.ManualTimeMeter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OrganisationRateLimitsTests {

  private final ManualTimeMeter clock = new ManualTimeMeter();
  private final OrganisationLimitProperties defaults =
      new OrganisationLimitProperties(50, 2, 1000, Duration.ofMinutes(2));

  private OrganisationRateLimits limits(int replicas) {
    return new OrganisationRateLimits(defaults, replicas, clock);
  }

  private int admitted(OrganisationRateLimits limits, String organisation, Integer perSecond, int attempts) {
    int admitted = 0;
    for (int i = 0; i < attempts; i++) {
      admitted += limits.tryConsume(OrganisationId.of(organisation), perSecond).isConsumed() ? 1 : 0;
    }
    return admitted;
  }

  @Test
  void theDefaultIsFiftyASecondWithABurstOfAHundred() {
    OrganisationRateLimits limits = limits(1);
    assertThat(admitted(limits, "org", null, 150)).isEqualTo(100);
    clock.advance(Duration.ofSeconds(1));
    assertThat(admitted(limits, "org", null, 150)).isEqualTo(50);
  }

  @Test
  void eachOfTwoReplicasTakesHalfOfTheLimitAndTheBurst() {
    OrganisationRateLimits limits = limits(2);
    assertThat(limits.share(10)).isEqualTo(new Limit(10, 10, Duration.ofSeconds(2)));
    assertThat(admitted(limits, "org", 10, 50)).isEqualTo(10);
    clock.advance(Duration.ofSeconds(2));
    assertThat(admitted(limits, "org", 10, 50)).isEqualTo(10);
  }

  @Test
  void organisationsHaveTheirOwnBuckets() {
    OrganisationRateLimits limits = limits(1);
    assertThat(admitted(limits, "busy", 5, 50)).isEqualTo(10);
    assertThat(admitted(limits, "quiet", 5, 3)).isEqualTo(3);
  }

  @Test
  void aChangedLimitTakesEffectWithoutAFreshBurst() {
    OrganisationRateLimits limits = limits(1);
    assertThat(admitted(limits, "org", 5, 50)).isEqualTo(10);

    // a token minted after the operator raised the limit: the empty bucket fills at the new rate
    assertThat(admitted(limits, "org", 100, 50)).isZero();
    clock.advance(Duration.ofSeconds(1));
    assertThat(admitted(limits, "org", 100, 500)).isEqualTo(100);
  }
}
