package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DeliveryTests {

  private static final Instant STARTED = Instant.parse("2026-01-15T09:00:00Z");
  private static final Instant ENDED = STARTED.plusMillis(120);
  private final RetrySchedule schedule =
      new RetrySchedule(List.of(Duration.ofSeconds(5), Duration.ofSeconds(30)), 0, new Random(1));

  private static Delivery pending(int attemptsMade) {
    return new Delivery("cb-1", "org-1", "req-1", "https://merchant.example/cb", "{}", "stk",
        DeliveryStatus.PENDING, attemptsMade, "lease-1");
  }

  @Test
  void isDeliveredByA2xxAnswer() {
    Transition transition = pending(0).afterAttempt(AttemptOutcome.answered(204, 120, null), STARTED, ENDED,
        schedule);

    assertThat(transition.status()).isEqualTo(DeliveryStatus.DELIVERED);
    assertThat(transition.nextAttemptAt()).isNull();
    assertThat(transition.attempt()).isEqualTo(
        new Attempt(1, STARTED, "https://merchant.example/cb", 204, 120, null, null));
  }

  @Test
  void staysPendingUntilTheScheduledRetryAfterAFailure() {
    Transition transition = pending(1).afterAttempt(AttemptOutcome.answered(500, 80, "oops"), STARTED, ENDED,
        schedule);

    assertThat(transition.status()).isEqualTo(DeliveryStatus.PENDING);
    assertThat(transition.nextAttemptAt()).isEqualTo(ENDED.plusSeconds(30));
    assertThat(transition.attempt().number()).isEqualTo(2);
    assertThat(transition.attempt().error()).isEqualTo("HTTP 500");
  }

  @Test
  void countsARedirectAsAFailure() {
    Transition transition = pending(0).afterAttempt(AttemptOutcome.answered(301, 5, null), STARTED, ENDED,
        schedule);

    assertThat(transition.status()).isEqualTo(DeliveryStatus.PENDING);
    assertThat(transition.attempt().error()).isEqualTo("HTTP 301 (redirect not followed)");
  }

  @Test
  void isDeadWhenTheLastScheduledAttemptFails() {
    Transition transition = pending(2).afterAttempt(AttemptOutcome.noAnswer("timeout", 10_000), STARTED, ENDED,
        schedule);

    assertThat(transition.status()).isEqualTo(DeliveryStatus.DEAD);
    assertThat(transition.attempt().number()).isEqualTo(3);
  }

  @Test
  void isDeadAtOnceWhenNoAttemptCanSucceed() {
    Transition transition = pending(0).afterAttempt(AttemptOutcome.unsendable("invalid url"), STARTED, ENDED,
        schedule);

    assertThat(transition.status()).isEqualTo(DeliveryStatus.DEAD);
  }

  @Test
  void refusesAnAttemptOnADeliveryThatIsNoLongerPending() {
    Delivery delivered = new Delivery("cb-1", "org-1", "req-1", "https://merchant.example/cb", "{}", "stk",
        DeliveryStatus.DELIVERED, 1, null);

    assertThatThrownBy(() -> delivered.afterAttempt(AttemptOutcome.answered(200, 1, null), STARTED, ENDED, schedule))
        .isInstanceOf(IllegalStateException.class);
  }
}
