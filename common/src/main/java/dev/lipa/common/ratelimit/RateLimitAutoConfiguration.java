package dev.lipa.common.ratelimit;

import com.mongodb.client.MongoClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The rate-limit mechanism: {@link ClientAddresses} for every service (who a request came from, behind the trusted
 * proxies of {@code lipa.rate-limits.trusted-proxies}), and, when {@code lipa.rate-limits.store.enabled=true}, the
 * shared bucket store ({@link MongoProxyManager}) over a collection of the service's own database, with its sweep of
 * expired buckets running.
 */
@AutoConfiguration(afterName = "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration")
@EnableConfigurationProperties(RateLimitProperties.class)
public class RateLimitAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ClientAddresses clientAddresses(RateLimitProperties properties) {
    return new ClientAddresses(properties.trustedProxies());
  }

  /** The shared store, only where a service asks for it. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.mongodb.client.MongoClient")
  @ConditionalOnProperty(name = "lipa.rate-limits.store.enabled", havingValue = "true")
  static class Store {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    MongoProxyManager rateLimitBuckets(MongoClient client, @Value("${spring.mongodb.database}") String database,
        RateLimitProperties properties) {
      RateLimitProperties.Store store = properties.store();
      return new MongoProxyManager(client.getDatabase(database).getCollection(store.collection()),
          store.keepAfterRefill()).start(store.sweepInterval());
    }
  }
}
