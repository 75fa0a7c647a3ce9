package dev.lipa.common.shutdown;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How a stopping process hands its traffic over ({@code lipa.shutdown.*}; the services' application.yml read
 * {@code LIPA_SHUTDOWN_DRAIN_DELAY}).
 *
 * @param drainDelay how long a process that was told to stop keeps serving with its readiness already down, before the
 *     web server's graceful shutdown, the Kafka listeners and the outbox stop: long enough for every load balancer
 *     in front of it to see the readiness and stop sending (the gateways check every
 *     {@code GATEWAY_HEALTH_CHECK_INTERVAL}, 2 s, and may need two intervals to act; hence 5 s). Zero stops at once.
 */
@ConfigurationProperties("lipa.shutdown")
public record ShutdownSettings(@DefaultValue("5s") Duration drainDelay) {

  public ShutdownSettings {
    if (drainDelay == null || drainDelay.isNegative()) {
      throw new IllegalArgumentException("lipa.shutdown.drain-delay must be zero or a positive duration, was "
          + drainDelay);
    }
  }
}
