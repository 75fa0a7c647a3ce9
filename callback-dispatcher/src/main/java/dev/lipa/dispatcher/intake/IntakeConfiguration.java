package dev.lipa.dispatcher.intake;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.FixedBackOff;

/** How the intake treats records it cannot store. */
@Configuration(proxyBeanMethods = false)
class IntakeConfiguration {

  /**
   * A store outage must not lose callbacks: the poll's records are retried every second until the store is back
   * (they are not committed meanwhile; storing a record twice changes nothing). Malformed records never get here:
   * the listener skips them itself.
   */
  @Bean
  DefaultErrorHandler intakeErrorHandler() {
    return new DefaultErrorHandler(new FixedBackOff(1000, FixedBackOff.UNLIMITED_ATTEMPTS));
  }
}
