package dev.lipa.common.production;

import com.mongodb.ConnectionString;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoDatabase;
import java.util.Collection;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Profile;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The {@link ProductionGuard}, for a service started with the {@value #PROFILE} profile only: the local
 * single-broker run ({@code ./platform up}) and the tests run without it, on one broker with replication factor 1.
 */
@AutoConfiguration(afterName = {"org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration",
    "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration"},
    after = dev.lipa.common.store.StoreAutoConfiguration.class)
@Profile(ProductionGuardAutoConfiguration.PROFILE)
@ConditionalOnClass(name = {"org.springframework.kafka.core.KafkaAdmin", "com.mongodb.client.MongoDatabase"})
@ConditionalOnBean(KafkaAdmin.class)
@EnableConfigurationProperties(ProductionGuardSettings.class)
public class ProductionGuardAutoConfiguration {

  /** The profile a service runs with in production. */
  public static final String PROFILE = "production";

  @Bean
  ProductionGuard productionGuard(ProductionGuardSettings settings, KafkaAdmin admin,
      ObjectProvider<KafkaListenerEndpointRegistry> registry, ObjectProvider<MongoDatabase> database,
      @Value("${spring.mongodb.uri:}") String mongoUri) {
    WriteConcern concern = database.stream().findFirst().map(MongoDatabase::getWriteConcern).orElse(null);
    boolean retryWrites = mongoUri.isBlank()
        || !Boolean.FALSE.equals(new ConnectionString(mongoUri).getRetryWritesValue());
    return new ProductionGuard(settings, admin.getConfigurationProperties(), () -> listeners(registry),
        concern, retryWrites);
  }

  private static Collection<MessageListenerContainer> listeners(ObjectProvider<KafkaListenerEndpointRegistry> registry) {
    KafkaListenerEndpointRegistry endpoints = registry.getIfAvailable();
    return endpoints == null ? List.of() : endpoints.getListenerContainers();
  }
}
