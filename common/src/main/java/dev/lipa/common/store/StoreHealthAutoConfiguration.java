package dev.lipa.common.store;

import com.mongodb.client.MongoClient;
import org.bson.Document;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Store health by {@code ping}, which every MongoDB wire server answers. Spring Boot's own indicator sends
 * {@code hello}, which the embedded store (mongo-java-server) does not know, so it would report DOWN forever.
 */
@AutoConfiguration(
    afterName = "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
    beforeName = "org.springframework.boot.mongodb.autoconfigure.health.MongoHealthContributorAutoConfiguration")
@ConditionalOnClass({MongoClient.class, HealthIndicator.class})
public class StoreHealthAutoConfiguration {

  @Bean(name = "mongoHealthIndicator")
  @ConditionalOnBean(MongoClient.class)
  HealthIndicator mongoHealthIndicator(MongoClient client) {
    return () -> {
      try {
        client.getDatabase("admin").runCommand(new Document("ping", 1));
        return Health.up().build();
      } catch (RuntimeException e) {
        return Health.down().withDetail("error", e.getClass().getSimpleName()).build();
      }
    };
  }
}
