package dev.lipa.common.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class StoreAutoConfigurationTests {

  /** Never connects: naming a database does not talk to the server. */
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(StoreAutoConfiguration.class))
      .withBean(MongoClient.class, () -> MongoClients.create("mongodb://127.0.0.1:1"));

  @Test
  void theServiceDatabaseIsTheOneSpringMongodbDatabaseNames() {
    runner.withPropertyValues("spring.mongodb.database=lipa-example").run(context ->
        assertThat(context.getBean(MongoDatabase.class).getName()).isEqualTo("lipa-example"));
  }

  @Test
  void aServiceThatNamesNoDatabaseGetsNone() {
    runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(MongoDatabase.class));
  }
}
