package dev.lipa.common.idempotency;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.json.JsonAutoConfiguration;
import dev.lipa.common.store.StoreAutoConfiguration;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code Idempotency-Key} store of every service with idempotent endpoints: {@link IdempotencyKeys} over the
 * collection {@value IdempotencyKeys#COLLECTION} of the service's own database (keys are scoped per organisation and
 * endpoint), with the settings the service binds under its own prefix ({@link IdempotencySettings.Source}), and the
 * {@link IdempotentEndpoint} its controllers run under. A service without such settings gets nothing.
 */
@AutoConfiguration(after = {JsonAutoConfiguration.class, StoreAutoConfiguration.class})
@ConditionalOnClass(name = "com.mongodb.client.MongoDatabase")
@ConditionalOnBean(IdempotencySettings.Source.class)
public class IdempotencyAutoConfiguration {

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  IdempotencyKeys idempotencyKeys(MongoDatabase database, IdempotencySettings.Source settings,
      ObjectProvider<Clock> clock) {
    return new IdempotencyKeys(database.getCollection(IdempotencyKeys.COLLECTION), settings.idempotency(),
        clock.getIfAvailable(Clock::systemUTC)).start();
  }

  @Bean
  @ConditionalOnMissingBean
  IdempotentEndpoint idempotentEndpoint(IdempotencyKeys keys, JsonMapper json) {
    return new IdempotentEndpoint(keys, json);
  }
}
