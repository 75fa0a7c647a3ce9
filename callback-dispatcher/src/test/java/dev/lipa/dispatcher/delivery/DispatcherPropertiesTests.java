package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class DispatcherPropertiesTests {

  private static DispatcherProperties bind(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("lipa.dispatcher", DispatcherProperties.class);
  }

  @Test
  void defaultsToTheDocumentedSchedule() {
    DispatcherProperties properties = bind(Map.of());

    assertThat(properties.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(properties.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(properties.retryDelays()).containsExactly(Duration.ofSeconds(5), Duration.ofMinutes(5),
        Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10), Duration.ofHours(10));
    assertThat(properties.jitter()).isEqualTo(0.1);
    assertThat(properties.retryAfterCap()).isEqualTo(Duration.ofHours(24));
    assertThat(properties.pollInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(properties.perHostConcurrency()).isEqualTo(32);
    assertThat(properties.responseSnippetBytes()).isEqualTo(1024);
  }

  @Test
  void readsACompressedScheduleForTests() {
    assertThat(bind(Map.of("lipa.dispatcher.retry-delays", "50ms,100ms")).retryDelays())
        .isEqualTo(List.of(Duration.ofMillis(50), Duration.ofMillis(100)));
  }

  @Test
  void refusesARequestTimeoutAboveFifteenSeconds() {
    assertThatThrownBy(() -> bind(Map.of("lipa.dispatcher.request-timeout", "16s", "lipa.dispatcher.lease-duration",
        "1m"))).isInstanceOf(BindException.class).rootCause().hasMessageContaining("at most 15s");
  }

  @Test
  void refusesALeaseThatEndsBeforeItsRequestCould() {
    assertThatThrownBy(() -> bind(Map.of("lipa.dispatcher.lease-duration", "5s")))
        .isInstanceOf(BindException.class).rootCause().hasMessageContaining("lease-duration");
  }

  @Test
  void refusesANonPositiveDelay() {
    assertThatThrownBy(() -> bind(Map.of("lipa.dispatcher.retry-delays", "5s,0s")))
        .isInstanceOf(BindException.class).rootCause().hasMessageContaining("retry-delays");
  }
}
