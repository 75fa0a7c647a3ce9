package dev.lipa.collections.stk.rail.daraja;

import dev.lipa.rails.daraja.DarajaClients;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The Daraja clients of a live collections-service, one per shortcode, behind the service's circuit breakers. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
class DarajaStkConfiguration {

  @Bean(destroyMethod = "close")
  DarajaClients darajaClients(ObjectProvider<CircuitBreakerRegistry> breakers, Clock clock) {
    return new DarajaClients(breakers.getIfAvailable(CircuitBreakerRegistry::ofDefaults), clock);
  }
}
