package dev.lipa.checkout.config;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's own database (lipa-checkout); no other service reads it. */
@Configuration(proxyBeanMethods = false)
class StoreConfiguration {

  @Bean
  MongoDatabase checkoutDatabase(MongoClient client, @Value("${spring.mongodb.database}") String database) {
    return client.getDatabase(database);
  }
}
