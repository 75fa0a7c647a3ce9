package dev.lipa.common.rail;

import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * A service's sandbox rail simulator, bound as the nested {@code sandbox} settings of its own prefix
 * ({@code lipa.collections.sandbox.*}, {@code lipa.payouts.sandbox.*}), checked at start-up.
 *
 * @param enabled whether the service runs the sandbox rail (the only rail so far)
 * @param outcomeDelay how long the simulated customer or provider takes to answer
 */
public record SandboxRailSettings(@DefaultValue("true") boolean enabled, @DefaultValue("3s") Duration outcomeDelay) {

  public SandboxRailSettings {
    if (outcomeDelay == null || outcomeDelay.isNegative()) {
      throw new IllegalArgumentException("the sandbox outcome-delay must not be negative");
    }
  }
}
