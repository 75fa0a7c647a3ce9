package dev.lipa.common.store;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * The service's own database, {@code spring.mongodb.database} (lipa-collections, lipa-payouts, ...): every store of
 * the service works on collections of it, and no other service reads it.
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
}
