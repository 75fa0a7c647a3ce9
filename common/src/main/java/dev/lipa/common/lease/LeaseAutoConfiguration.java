package dev.lipa.common.lease;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.store.StoreAutoConfiguration;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The scheduled jobs' {@link Leases}, in the collection {@value Leases#COLLECTION} of the service's own database. */
@AutoConfiguration(after = StoreAutoConfiguration.class)
@ConditionalOnClass(name = "com.mongodb.client.MongoDatabase")
@ConditionalOnBean(MongoDatabase.class)
public class LeaseAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  Leases leases(MongoDatabase database, ObjectProvider<Clock> clock) {
    return new Leases(database.getCollection(Leases.COLLECTION), clock.getIfAvailable(Clock::systemUTC));
  }
}
