package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The replication of the bench's reference topic, as topics.yaml's values are lowered on fewer brokers. */
class ReferenceTopicTests {

  @Test
  void replicatesOnEveryBrokerUpToThreeAndAcknowledgesOnTwoAtMost() {
    assertThat(ReferenceTopic.replication(1)).isEqualTo((short) 1);
    assertThat(ReferenceTopic.replication(2)).isEqualTo((short) 2);
    assertThat(ReferenceTopic.replication(3)).isEqualTo((short) 3);
    assertThat(ReferenceTopic.replication(5)).isEqualTo((short) 3);
    assertThat(ReferenceTopic.minInsyncReplicas((short) 1)).isEqualTo(1);
    assertThat(ReferenceTopic.minInsyncReplicas((short) 3)).isEqualTo(2);
  }

  @Test
  void refusesAClusterWithoutALiveBroker() {
    assertThatThrownBy(() -> ReferenceTopic.replication(0)).isInstanceOf(IllegalStateException.class);
  }
}
