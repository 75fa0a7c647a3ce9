package dev.lipa.checkout.config;

import com.mongodb.client.MongoDatabase;
import dev.lipa.checkout.CheckoutProperties;
import dev.lipa.common.idempotency.IdempotencyKeys;
import dev.lipa.common.idempotency.IdempotencySettings;
import dev.lipa.common.idempotency.IdempotentEndpoint;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** The service's Idempotency-Key store (keys scoped per organisation and endpoint). */
@Configuration(proxyBeanMethods = false)
class IdempotencyConfiguration {

  @Bean(destroyMethod = "close")
  IdempotencyKeys idempotencyKeys(MongoDatabase database, CheckoutProperties properties, Clock clock) {
    CheckoutProperties.Idempotency settings = properties.idempotency();
    return new IdempotencyKeys(database.getCollection(IdempotencyKeys.COLLECTION),
        new IdempotencySettings(settings.retention(), settings.lease(), settings.cleanupInterval()), clock).start();
  }

  @Bean
  IdempotentEndpoint idempotentEndpoint(IdempotencyKeys keys, JsonMapper json) {
    return new IdempotentEndpoint(keys, json);
  }
}
