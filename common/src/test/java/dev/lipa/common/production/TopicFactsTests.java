package dev.lipa.common.production;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicFactsTests {

  @Test
  void aTopicAtTheThresholdsIsSafe() {
    assertThat(TopicFacts.of("t", 3, 2).shortfall(3, 2)).isEmpty();
    assertThat(TopicFacts.of("t", 5, 3).shortfall(3, 2)).isEmpty();
  }

  @Test
  void namesEachFactBelowItsThreshold() {
    assertThat(TopicFacts.of("t", 2, 2).shortfall(3, 2)).hasValue("topic t has replication factor 2 (at least 3 wanted)");
    assertThat(TopicFacts.of("t", 3, 1).shortfall(3, 2)).hasValue("topic t has min.insync.replicas 1 (at least 2 wanted)");
  }

  @Test
  void aMissingTopicIsNeverSafe() {
    assertThat(TopicFacts.missing("t").shortfall(0, 0)).hasValueSatisfying(why ->
        assertThat(why).startsWith("topic t does not exist"));
  }
}
