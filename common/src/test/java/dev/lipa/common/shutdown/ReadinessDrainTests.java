package dev.lipa.common.shutdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationListener;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.context.support.StaticApplicationContext;

class ReadinessDrainTests {

  private static final Duration DELAY = Duration.ofMillis(600);

  private final StaticApplicationContext context = new StaticApplicationContext();
  private final List<ReadinessState> published = new CopyOnWriteArrayList<>();

  ReadinessDrainTests() {
    context.addApplicationListener((ApplicationListener<AvailabilityChangeEvent<ReadinessState>>) event ->
        published.add(event.getState()));
    context.refresh();
  }

  private ReadinessDrain drain(Duration delay) {
    ReadinessDrain drain = new ReadinessDrain(context, new ShutdownSettings(delay));
    context.addApplicationListener(drain);
    drain.start();
    return drain;
  }

  @Test
  void aReadyProcessRefusesTrafficFirstAndThenWaitsOutTheDelay() {
    ReadinessDrain drain = drain(DELAY);
    AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);

    long before = System.nanoTime();
    drain.stop();

    assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(DELAY);
    assertThat(published).containsExactly(ReadinessState.ACCEPTING_TRAFFIC, ReadinessState.REFUSING_TRAFFIC);
    assertThat(drain.isRunning()).isFalse();
  }

  @Test
  void aProcessThatWasNeverReadyStopsAtOnce() {
    ReadinessDrain drain = drain(Duration.ofSeconds(30));

    long before = System.nanoTime();
    drain.stop();

    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(5));
    assertThat(published).containsExactly(ReadinessState.REFUSING_TRAFFIC);
  }

  @Test
  void aPausedContextKeepsItsReadinessAndAStoppedOneIsReadyAgainWhenItStarts() {
    try (GenericApplicationContext app = new GenericApplicationContext()) {
      List<ReadinessState> states = new CopyOnWriteArrayList<>();
      app.addApplicationListener((ApplicationListener<AvailabilityChangeEvent<ReadinessState>>) event ->
          states.add(event.getState()));
      app.registerBean(ShutdownSettings.class, () -> new ShutdownSettings(Duration.ZERO));
      app.registerBean(ReadinessDrain.class);
      app.refresh();
      AvailabilityChangeEvent.publish(app, ReadinessState.ACCEPTING_TRAFFIC);

      app.pause();
      app.restart();
      assertThat(states).as("paused and resumed").containsExactly(ReadinessState.ACCEPTING_TRAFFIC);

      app.stop();
      app.start();
      assertThat(states).as("stopped and started").containsExactly(ReadinessState.ACCEPTING_TRAFFIC,
          ReadinessState.REFUSING_TRAFFIC, ReadinessState.ACCEPTING_TRAFFIC);
    }
  }

  @Test
  void stopsBeforeTheKafkaListenersAndTheWebServersGracefulShutdown() {
    // org.springframework.kafka.listener.AbstractMessageListenerContainer.DEFAULT_PHASE and Spring Boot's
    // WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE: higher phases stop first
    assertThat(drain(DELAY).getPhase())
        .isGreaterThan(org.springframework.kafka.listener.AbstractMessageListenerContainer.DEFAULT_PHASE)
        .isGreaterThan(org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle
            .SMART_LIFECYCLE_PHASE);
  }

  @Test
  void refusesANegativeDelay() {
    assertThatThrownBy(() -> new ShutdownSettings(Duration.ofSeconds(-1)))
        .hasMessageContaining("lipa.shutdown.drain-delay");
  }
}
