package dev.lipa.collections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReconciliationSettingsTests {

  private final CollectionsProperties.Reconciliation defaults = new CollectionsProperties.Reconciliation(10,
      Duration.ofSeconds(10), Duration.ofMinutes(10));

  @Test
  void pausesDoubleAfterEachQuestionUpToTheLongestPause() {
    assertThat(IntStream.rangeClosed(1, 9).mapToObj(defaults::pauseAfter).map(Optional::orElseThrow)
        .map(Duration::toSeconds)).containsExactly(10L, 20L, 40L, 80L, 160L, 320L, 600L, 600L, 600L);
  }

  @Test
  void theLastQuestionHasNoPauseAfterIt() {
    assertThat(defaults.pauseAfter(10)).isEmpty();
    assertThat(defaults.pauseAfter(11)).isEmpty();
    assertThat(new CollectionsProperties.Reconciliation(1, Duration.ofSeconds(1), Duration.ofSeconds(1))
        .pauseAfter(1)).isEmpty();
  }

  @Test
  void manyAllowedQuestionsNeverOverflowThePause() {
    CollectionsProperties.Reconciliation many = new CollectionsProperties.Reconciliation(Integer.MAX_VALUE,
        Duration.ofDays(365), Duration.ofDays(36500));

    assertThat(many.pauseAfter(Integer.MAX_VALUE - 1)).contains(Duration.ofDays(36500));
  }

  @Test
  void refusesNoQuestionsAndPausesThatAreNotPositive() {
    assertThatThrownBy(() -> new CollectionsProperties.Reconciliation(0, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .hasMessageContaining("max-questions");
    assertThatThrownBy(() -> new CollectionsProperties.Reconciliation(3, Duration.ZERO, Duration.ofSeconds(1)))
        .hasMessageContaining("first-pause");
  }
}
