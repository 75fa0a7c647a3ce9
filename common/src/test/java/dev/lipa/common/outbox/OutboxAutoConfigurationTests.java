package dev.lipa.common.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ProducerFactory;

/** The outbox's one wiring: settings bound under the service's own prefix, one {@link Outboxes} per service. */
class OutboxAutoConfigurationTests {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(OutboxAutoConfiguration.class))
      .withUserConfiguration(Producers.class);

  /** Stands in for a service's settings record (lipa.collections, lipa.payouts, ...). */
  @ConfigurationProperties("lipa.example")
  record ExampleProperties(@DefaultValue("x") String other, @DefaultValue OutboxSettings outbox)
      implements OutboxSettings.Source {
  }

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(ExampleProperties.class)
  static class PublishingService {
  }

  @Configuration(proxyBeanMethods = false)
  static class Producers {

    @Bean
    ProducerFactory<String, String> producerFactory() {
      return () -> new MockProducer<>(true, null, new StringSerializer(), new StringSerializer());
    }
  }

  @Test
  void bindsTheOutboxSettingsUnderTheServicesOwnPrefix() {
    runner.withUserConfiguration(PublishingService.class)
        .withPropertyValues("lipa.example.outbox.sweep-interval=2s", "lipa.example.outbox.grace-period=40s",
            "lipa.example.outbox.sweep-batch=50")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(Outboxes.class);
          assertThat(context.getBean(ExampleProperties.class).outbox())
              .isEqualTo(new OutboxSettings(Duration.ofSeconds(2), Duration.ofSeconds(40), 50, Duration.ofSeconds(5)));
        });
  }

  @Test
  void usesTheDocumentedDefaultsWhenTheServiceSetsNothing() {
    runner.withUserConfiguration(PublishingService.class).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ExampleProperties.class).outbox()).isEqualTo(OutboxSettings.DEFAULTS);
    });
  }

  @Test
  void refusesToStartWithAGracePeriodThatIsNotPositive() {
    runner.withUserConfiguration(PublishingService.class)
        .withPropertyValues("lipa.example.outbox.grace-period=0s")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure())
              .hasStackTraceContaining("Failed to bind properties under 'lipa.example.outbox'")
              .rootCause().hasMessageContaining("grace-period must be a positive duration");
        });
  }

  @Test
  void keepsTheAcknowledgementDelayWithinHalfTheGracePeriod() {
    runner.withUserConfiguration(PublishingService.class)
        .withPropertyValues("lipa.example.outbox.grace-period=4s")
        .run(context -> assertThat(context.getBean(ExampleProperties.class).outbox().ackDelay())
            .isEqualTo(Duration.ofSeconds(2)));
  }

  @Test
  void aServiceWithoutOutboxSettingsGetsNoOutbox() {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).doesNotHaveBean(Outboxes.class);
    });
  }
}
