package dev.lipa.collections;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.EffectiveProducerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * The started service's producers (its outbox and its dead-letter recoverer publish through this template) are
 * idempotent with acks=all, as Kafka resolves the configuration they are built from.
 */
class ProducerSettingsIntegrationTests extends CollectionsIntegrationTest {

  @Autowired
  private KafkaTemplate<?, ?> kafka;

  @Test
  void theServicesProducersAreIdempotentAndWaitForEveryInSyncReplica() {
    ProducerConfig config = EffectiveProducerConfig.of(kafka.getProducerFactory());

    assertThat(config.getString(ProducerConfig.ACKS_CONFIG)).isEqualTo("-1");
    assertThat(config.getBoolean(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)).isTrue();
    assertThat(config.getInt(ProducerConfig.RETRIES_CONFIG)).isPositive();
    assertThat(config.getInt(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION)).isLessThanOrEqualTo(5);
  }
}
