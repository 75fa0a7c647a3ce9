package dev.lipa.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTimelineTests {

  private static final Instant T0 = Instant.parse("2026-01-15T09:00:00Z");
  private static final Duration RETIRE_AFTER = Duration.ofMinutes(31);

  private static SigningKey key(String kid, String follows, Instant activatesAt) {
    return new SigningKey(kid, null, "sealed", follows, activatesAt, activatesAt, null);
  }

  private final SigningKey first = key("a", SigningKeyStore.FIRST, T0);
  private final SigningKey next = key("b", "a", T0.plus(Duration.ofMinutes(10)));
  private final KeyTimeline timeline = new KeyTimeline(List.of(next, first), RETIRE_AFTER);

  @Test
  void theNewKeyIsPublishedButDoesNotSignBeforeItsActivation() {
    Instant duringLead = T0.plus(Duration.ofMinutes(9));

    assertThat(timeline.signing(duringLead)).contains(first);
    assertThat(timeline.status(first, duringLead)).isEqualTo(SigningKeyStatus.ACTIVE);
    assertThat(timeline.status(next, duringLead)).isEqualTo(SigningKeyStatus.NEXT);
    assertThat(timeline.published(duringLead)).containsExactly(first, next);
    assertThat(timeline.latest()).contains(next);
  }

  @Test
  void exactlyOneKeySignsAtEveryInstant() {
    for (int minute = 0; minute < 60; minute++) {
      Instant now = T0.plus(Duration.ofMinutes(minute));
      long active = List.of(first, next).stream()
          .filter(k -> timeline.status(k, now) == SigningKeyStatus.ACTIVE).count();
      assertThat(active).as("minute " + minute).isEqualTo(1);
      assertThat(timeline.status(timeline.signing(now).orElseThrow(), now)).isEqualTo(SigningKeyStatus.ACTIVE);
    }
  }

  @Test
  void theOldKeyStaysPublishedUntilItsLastTokenHasExpired() {
    Instant activation = next.activatesAt();

    assertThat(timeline.signing(activation)).contains(next);
    assertThat(timeline.deactivatesAt(first)).isEqualTo(activation);
    assertThat(timeline.retiresAt(first)).isEqualTo(activation.plus(RETIRE_AFTER));
    assertThat(timeline.status(first, activation)).isEqualTo(SigningKeyStatus.RETIRING);
    assertThat(timeline.status(first, activation.plus(RETIRE_AFTER).minusSeconds(1)))
        .isEqualTo(SigningKeyStatus.RETIRING);
    assertThat(timeline.status(first, activation.plus(RETIRE_AFTER))).isEqualTo(SigningKeyStatus.RETIRED);
    assertThat(timeline.published(activation.plus(RETIRE_AFTER))).containsExactly(next);
  }

  @Test
  void aRetiredKeyNeverSignsNorIsPublishedWhateverItsTimes() {
    SigningKey retired = new SigningKey("z", null, null, "retired:z", T0.plusSeconds(5), T0.plusSeconds(5),
        T0.plusSeconds(6));
    KeyTimeline withRetired = new KeyTimeline(List.of(first, retired), RETIRE_AFTER);

    assertThat(withRetired.signing(T0.plusSeconds(60))).contains(first);
    assertThat(withRetired.status(first, T0.plusSeconds(60))).isEqualTo(SigningKeyStatus.ACTIVE);
    assertThat(withRetired.published(T0.plusSeconds(60))).containsExactly(first);
  }
}
