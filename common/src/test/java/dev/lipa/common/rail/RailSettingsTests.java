package dev.lipa.common.rail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The sandbox rail and overdue settings: their defaults, bound as a service binds them, and what start-up refuses. */
class RailSettingsTests {

  private static <T> T bind(String prefix, Class<T> type, Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, type);
  }

  @Test
  void defaultsAreTheSandboxRailsThreeSecondsAndAMinuteBeforeAPushIsOverdue() {
    assertThat(bind("lipa.example.sandbox", SandboxRailSettings.class, Map.of()))
        .isEqualTo(new SandboxRailSettings(true, Duration.ofSeconds(3)));
    assertThat(bind("lipa.example.overdue", OverdueSettings.class, Map.of()))
        .isEqualTo(new OverdueSettings(Duration.ofSeconds(60), Duration.ofSeconds(10), 100));
  }

  @Test
  void bindsTheServicesOwnPrefix() {
    assertThat(bind("lipa.example.overdue", OverdueSettings.class,
        Map.of("lipa.example.overdue.after", "5s", "lipa.example.overdue.sweep-batch", "7")))
        .isEqualTo(new OverdueSettings(Duration.ofSeconds(5), Duration.ofSeconds(10), 7));
    assertThat(bind("lipa.example.sandbox", SandboxRailSettings.class,
        Map.of("lipa.example.sandbox.enabled", "false", "lipa.example.sandbox.outcome-delay", "0s")))
        .isEqualTo(new SandboxRailSettings(false, Duration.ZERO));
  }

  @Test
  void refusesANegativeOutcomeDelay() {
    assertThatThrownBy(() -> new SandboxRailSettings(true, Duration.ofMillis(-1)))
        .hasMessage("the sandbox outcome-delay must not be negative");
  }

  @Test
  void refusesAnOverdueAgeOrIntervalThatIsNotPositiveAndAnEmptyBatch() {
    assertThatThrownBy(() -> new OverdueSettings(Duration.ZERO, Duration.ofSeconds(1), 1))
        .hasMessage("the overdue after must be a positive duration");
    assertThatThrownBy(() -> new OverdueSettings(Duration.ofSeconds(1), Duration.ofSeconds(-1), 1))
        .hasMessage("the overdue sweep-interval must be a positive duration");
    assertThatThrownBy(() -> new OverdueSettings(Duration.ofSeconds(1), Duration.ofSeconds(1), 0))
        .hasMessage("the overdue sweep-batch must be at least 1");
  }
}
