package dev.lipa.rails.daraja.tokens;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.crypto.SecretEnvelope;
import dev.lipa.common.crypto.SecretsAutoConfiguration;
import dev.lipa.common.store.StoreAutoConfiguration;
import dev.lipa.rails.daraja.DarajaClients;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * The Daraja clients of a live service (collections-service's STK rail, payouts-service's payout rail): one per
 * shortcode, behind the service's circuit breakers, and each Daraja app's access token kept in the service's own
 * database for all its replicas ({@link DarajaTokenStore}). A sandbox service has none of this.
 */
@AutoConfiguration(after = {StoreAutoConfiguration.class, SecretsAutoConfiguration.class})
@ConditionalOnProperty(name = "lipa.environment", havingValue = "live")
@ConditionalOnBean(MongoDatabase.class)
public class DarajaClientsAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  DarajaTokenStore darajaTokenStore(MongoDatabase database, SecretEnvelope envelope) {
    return new DarajaTokenStore(database, envelope);
  }

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  DarajaClients darajaClients(ObjectProvider<CircuitBreakerRegistry> breakers, ObjectProvider<Clock> clock,
      DarajaTokenStore tokens) {
    return new DarajaClients(breakers.getIfAvailable(CircuitBreakerRegistry::ofDefaults),
        clock.getIfAvailable(Clock::systemUTC), tokens);
  }
}
