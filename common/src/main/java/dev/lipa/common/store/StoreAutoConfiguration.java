package dev.lipa.common.store;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The service's own database, {@code spring.mongodb.database} (lipa-collections, lipa-payouts, ...): every store of
 * the service works on collections of it, and no other service reads it; and the client's write safety
 * ({@link StoreWriteSafety}: majority write concern, retryable writes).
 */
@AutoConfiguration(afterName = "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration")
@ConditionalOnClass(MongoClient.class)
public class StoreAutoConfiguration {

  @Bean
  @ConditionalOnBean(MongoClient.class)
  @ConditionalOnMissingBean
  @ConditionalOnProperty("spring.mongodb.database")
  MongoDatabase serviceDatabase(MongoClient client, @Value("${spring.mongodb.database}") String database) {
    return client.getDatabase(database);
  }

  /** Applied after the connection string (Boot's own customizer, order 0), so that it sees what the string chose. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer")
  static class WriteSafety {

    @Bean
    MongoClientSettingsBuilderCustomizer storeWriteSafety() {
      return new MongoClientSettingsBuilderCustomizer() {
        @Override
        public void customize(com.mongodb.MongoClientSettings.Builder builder) {
          StoreWriteSafety.apply(builder);
        }
      };
    }
  }
}
