package dev.lipa.auth;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's own database; every store works on collections of it. */
@Configuration(proxyBeanMethods = false)
class StoreConfiguration {

  @Bean
  MongoDatabase authDatabase(MongoClient client, @Value("${spring.mongodb.database:lipa-auth}") String database) {
    return client.getDatabase(database);
  }
}
