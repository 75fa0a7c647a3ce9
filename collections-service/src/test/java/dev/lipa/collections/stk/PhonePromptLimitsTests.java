package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.collections.CollectionsProperties;
import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.phone.MobileNumber;
import dev.lipa.common.ratelimit.RateLimitExceededException;
import dev.lipa.common.testsupport.ManualTimeMeter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PhonePromptLimitsTests {

  private final ManualTimeMeter clock = new ManualTimeMeter();
  private final MobileNumber customer = MobileNumber.parse("0712345678", MobileCountry.KENYA).orElseThrow();

  private PhonePromptLimits limits(int replicas) {
    return new PhonePromptLimits(new CollectionsProperties.PromptLimits(null, replicas, 1000), clock);
  }

  private int prompts(PhonePromptLimits limits, int attempts) {
    int sent = 0;
    for (int i = 0; i < attempts; i++) {
      try {
        limits.acquire(customer);
        sent++;
      } catch (RateLimitExceededException e) {
        // refused
      }
    }
    return sent;
  }

  @Test
  void byDefaultThreeAMinuteAndTenAnHour() {
    PhonePromptLimits limits = limits(1);
    int sent = 0;
    for (int minute = 0; minute < 60; minute++) {
      sent += prompts(limits, 5);
      clock.advance(Duration.ofMinutes(1));
    }
    // ten at once allowed by the hour, plus what the hour gave back while they were spent (one every six minutes)
    assertThat(sent).isBetween(10, 20);
    assertThat(sent).isLessThan(3 * 60);
  }

  @Test
  void refusesWithTheWaitUntilTheNextPrompt() {
    PhonePromptLimits limits = limits(1);
    prompts(limits, 3);
    assertThatThrownBy(() -> limits.acquire(customer)).isInstanceOfSatisfying(RateLimitExceededException.class,
        e -> assertThat(e.retryAfterSeconds()).isEqualTo(20));
  }

  @Test
  void aPromptGivenBackCanBeUsedAgain() {
    PhonePromptLimits limits = limits(1);
    prompts(limits, 2);
    limits.acquire(customer).giveBack();
    assertThat(prompts(limits, 5)).isEqualTo(1);
  }

  @Test
  void eachOfTwoReplicasEnforcesItsShare() {
    // 3 a minute shared by 2: one at once each, then one every two minutes each
    PhonePromptLimits limits = limits(2);
    assertThat(prompts(limits, 5)).isEqualTo(1);
    clock.advance(Duration.ofMinutes(2));
    assertThat(prompts(limits, 5)).isEqualTo(1);
  }
}
