package dev.lipa.dispatcher.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HostGateTests {

  private static CircuitBreakerConfig breaker() {
    return CircuitBreakerConfig.custom().slidingWindowSize(4).minimumNumberOfCalls(4).failureRateThreshold(50)
        .waitDurationInOpenState(Duration.ofMinutes(1)).build();
  }

  @Test
  void letsAtMostTheConfiguredNumberOfAttemptsIntoOneDestination() throws InterruptedException {
    HostGate gate = new HostGate(2, Duration.ZERO, breaker());

    Optional<HostGate.Pass> first = gate.tryEnter("slow.example:443");
    Optional<HostGate.Pass> second = gate.tryEnter("slow.example:443");
    Optional<HostGate.Pass> third = gate.tryEnter("slow.example:443");

    assertThat(first).isPresent();
    assertThat(second).isPresent();
    assertThat(third).isEmpty();
    assertThat(gate.tryEnter("fast.example:443")).as("another destination is not affected").isPresent();

    first.get().succeeded();
    assertThat(gate.tryEnter("slow.example:443")).isPresent();
  }

  @Test
  void opensTheCircuitOfADestinationThatKeepsFailingAndOnlyThatOne() throws InterruptedException {
    HostGate gate = new HostGate(8, Duration.ZERO, breaker());
    List<HostGate.Pass> passes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      passes.add(gate.tryEnter("down.example:443").orElseThrow());
    }
    passes.forEach(pass -> pass.failed("timeout"));

    assertThat(gate.state("down.example:443")).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(gate.tryEnter("down.example:443")).isEmpty();
    assertThat(gate.tryEnter("up.example:443")).isPresent();
  }

  @Test
  void namesDestinationsByHostAndEffectivePort() {
    assertThat(HostGate.destination("https://Merchant.Example/cb")).isEqualTo("merchant.example:443");
    assertThat(HostGate.destination("http://merchant.example/cb")).isEqualTo("merchant.example:80");
    assertThat(HostGate.destination("http://127.0.0.1:9000/cb")).isEqualTo("127.0.0.1:9000");
  }
}
