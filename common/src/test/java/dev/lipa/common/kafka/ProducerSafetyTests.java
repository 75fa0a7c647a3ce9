package dev.lipa.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import dev.lipa.common.testsupport.EffectiveProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;

/**
 * Every producer a service gets from Boot is idempotent with acks=all, and a service that asks for less does not
 * start. Read from the configuration the producer is built from, resolved by Kafka's own {@link ProducerConfig} (what
 * {@code KafkaProducer} does with it).
 */
class ProducerSafetyTests {

  private final ApplicationContextRunner service = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ProducerSafetyAutoConfiguration.class,
          org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration.class))
      .withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:1");

  @Test
  void aServiceThatSaysNothingAboutItsProducersGetsIdempotenceAndAcksAll() {
    service.run(context -> {
      assertThat(context).hasNotFailed();
      ProducerConfig config = EffectiveProducerConfig.of(context.getBean(DefaultKafkaProducerFactory.class));
      assertThat(config.getString(ProducerConfig.ACKS_CONFIG)).isEqualTo("-1");
      assertThat(config.getBoolean(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)).isTrue();
      assertThat(config.getInt(ProducerConfig.RETRIES_CONFIG)).isPositive();
      assertThat(config.getInt(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION)).isLessThanOrEqualTo(5);
    });
  }

  @Test
  void aServiceAskingForAcksOneDoesNotStart() {
    service.withPropertyValues("spring.kafka.producer.acks=1").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .hasMessageContaining("Kafka producer setting acks=1 is refused").hasMessageContaining("must be all");
    });
  }

  @Test
  void aServiceTurningIdempotenceOffDoesNotStart() {
    service.withPropertyValues("spring.kafka.producer.properties.enable.idempotence=false").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .hasMessageContaining("enable.idempotence=false is refused");
    });
  }

  @Test
  void refusesEveryOtherSettingThatWouldQuietlyTurnIdempotenceOff() {
    assertThatThrownBy(() -> ProducerSafety.enforced(Map.of(ProducerConfig.RETRIES_CONFIG, 0)))
        .hasMessageContaining("retries=0 is refused");
    assertThatThrownBy(() -> ProducerSafety.enforced(
        Map.of(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "6")))
        .hasMessageContaining("max.in.flight.requests.per.connection=6 is refused");
    assertThatThrownBy(() -> ProducerSafety.enforced(Map.of(ProducerConfig.ACKS_CONFIG, "0")))
        .hasMessageContaining("acks=0 is refused");
  }

  @Test
  void keepsWhatIsAlreadySafe() {
    assertThat(ProducerSafety.enforced(Map.of(ProducerConfig.ACKS_CONFIG, "-1",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true", ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5)))
        .containsEntry(ProducerConfig.ACKS_CONFIG, "all")
        .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
  }
}
