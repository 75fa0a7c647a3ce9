package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.ids.OrganisationId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DeliveryTests {

  private static final OrganisationId ORG = OrganisationId.of("org-1");
  private static final Instant STARTED = Instant.parse("2026-01-15T09:00:00Z");
  private static final Instant ENDED = STARTED.plusMillis(120);
  private final RetrySchedule schedule =
      new RetrySchedule(List.of(Duration.ofSeconds(5), Duration.ofSeconds(30)), 0, new Random(1));

  private static Delivery pending(int attemptsMade) {
    return pending(attemptsMade, attemptsMade);
  }

  private static Delivery pending(int attemptsMade, int inThisRound) {
    return new Delivery("cb-1", ORG, "req-1", "https://merchant.example/cb", "{}", "stk", DeliveryStatus.PENDING,
        attemptsMade, inThisRound, "lease-1");
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
    assertThat(transition.deadReason()).isEqualTo("retry schedule exhausted");
  }

  @Test
  void isDeadAtOnceWhenNoAttemptCanSucceed() {
    Transition transition = pending(0).afterAttempt(AttemptOutcome.unsendable("invalid url"), STARTED, ENDED,
        schedule);

    assertThat(transition.status()).isEqualTo(DeliveryStatus.DEAD);
    assertThat(transition.deadReason()).isEqualTo("invalid url");
  }

  @Test
  void isDeadAtOnceWhenTheEndpointIsGone() {
    Transition transition = pending(0).afterAttempt(AttemptOutcome.answered(410, 5, null), STARTED, ENDED,
        schedule);

    assertThat(transition.status()).isEqualTo(DeliveryStatus.DEAD);
    assertThat(transition.deadReason()).isEqualTo("the endpoint answered 410 Gone");
  }

  @Test
  void honoursRetryAfterOn503And429Only() {
    Duration asked = Duration.ofMinutes(2);

    assertThat(pending(0).afterAttempt(AttemptOutcome.answered(503, 5, null, asked), STARTED, ENDED, schedule)
        .nextAttemptAt()).isEqualTo(ENDED.plus(asked));
    assertThat(pending(0).afterAttempt(AttemptOutcome.answered(429, 5, null, asked), STARTED, ENDED, schedule)
        .nextAttemptAt()).isEqualTo(ENDED.plus(asked));
    assertThat(pending(0).afterAttempt(AttemptOutcome.answered(500, 5, null, asked), STARTED, ENDED, schedule)
        .nextAttemptAt()).isEqualTo(ENDED.plusSeconds(5));
  }

  @Test
  void startsTheScheduleAgainAfterARedelivery() {
    // 3 attempts made in earlier rounds, the first of this round failed: the first wait again, not the end
    Transition transition = pending(3, 0).afterAttempt(AttemptOutcome.answered(500, 5, null), STARTED, ENDED,
        schedule);

    assertThat(transition.status()).isEqualTo(DeliveryStatus.PENDING);
    assertThat(transition.nextAttemptAt()).isEqualTo(ENDED.plusSeconds(5));
    assertThat(transition.attempt().number()).isEqualTo(4);
  }

  @Test
  void goesDeadWithoutARequestWhenItsEndpointIsDisabled() {
    Transition transition = pending(0).endpointDisabled(STARTED);

    assertThat(transition.status()).isEqualTo(DeliveryStatus.DEAD);
    assertThat(transition.attempt().statusCode()).isNull();
    assertThat(transition.attempt().error()).startsWith("not sent");
  }

  @Test
  void followsTheDocumentedScheduleOnAFakeClockUntilItIsDead() {
    RetrySchedule documented = new RetrySchedule(List.of(Duration.ofSeconds(5), Duration.ofMinutes(5),
        Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10),
        Duration.ofHours(10)), 0, new Random(1));
    Instant clock = STARTED;
    Delivery delivery = pending(0);
    List<Duration> waits = new ArrayList<>();
    Transition transition;
    do {
      transition = delivery.afterAttempt(AttemptOutcome.answered(500, 0, null), clock, clock, documented);
      if (transition.status() == DeliveryStatus.PENDING) {
        waits.add(Duration.between(clock, transition.nextAttemptAt()));
        clock = transition.nextAttemptAt();
        delivery = pending(delivery.attempts() + 1);
      }
    } while (transition.status() == DeliveryStatus.PENDING);

    assertThat(waits).containsExactly(Duration.ofSeconds(5), Duration.ofMinutes(5), Duration.ofMinutes(30),
        Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10), Duration.ofHours(10));
    assertThat(transition.attempt().number()).isEqualTo(8);
    assertThat(Duration.between(STARTED, clock)).isEqualTo(Duration.parse("PT27H35M5S"));
  }

  @Test
  void refusesAnAttemptOnADeliveryThatIsNoLongerPending() {
    Delivery delivered = new Delivery("cb-1", ORG, "req-1", "https://merchant.example/cb", "{}", "stk",
        DeliveryStatus.DELIVERED, 1, 1, null);

    assertThatThrownBy(() -> delivered.afterAttempt(AttemptOutcome.answered(200, 1, null), STARTED, ENDED, schedule))
        .isInstanceOf(IllegalStateException.class);
  }
}
