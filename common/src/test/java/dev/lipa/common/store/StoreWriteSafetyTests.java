package dev.lipa.common.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoDatabase;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The store client's write safety: majority unless the connection string chose otherwise, retryable writes. */
class StoreWriteSafetyTests {

  /** A service's Mongo wiring; the client never connects (nothing here runs a command). */
  private final ApplicationContextRunner service = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(MongoAutoConfiguration.class, StoreAutoConfiguration.class))
      .withPropertyValues("spring.mongodb.database=lipa-example");

  private static MongoClientSettings applied(String uri) {
    MongoClientSettings.Builder builder = MongoClientSettings.builder().applyConnectionString(new ConnectionString(uri));
    StoreWriteSafety.apply(builder);
    return builder.build();
  }

  @Test
  void aServiceWhoseConnectionStringSaysNothingWritesWithMajorityAndRetryableWrites() {
    service.withPropertyValues("spring.mongodb.uri=mongodb://127.0.0.1:1").run(context -> {
      MongoDatabase database = context.getBean(MongoDatabase.class);
      assertThat(database.getWriteConcern().getWObject()).isEqualTo("majority");
      assertThat(StoreWriteSafety.weakness(database.getWriteConcern(), true)).isEmpty();
    });
  }

  @Test
  void aWriteConcernTheConnectionStringNamesIsKeptSoThatAProductionGuardSeesIt() {
    service.withPropertyValues("spring.mongodb.uri=mongodb://127.0.0.1:1/?w=1").run(context -> {
      WriteConcern concern = context.getBean(MongoDatabase.class).getWriteConcern();
      assertThat(concern.getWObject()).isEqualTo(1);
      assertThat(StoreWriteSafety.weakness(concern, true)).hasValueSatisfying(why ->
          assertThat(why).contains("write concern is w=1, not w=majority"));
    });
  }

  @Test
  void keepsTheJournalAndTimeoutTheConnectionStringAsksFor() {
    MongoClientSettings settings = applied("mongodb://127.0.0.1:1/?journal=true&wtimeoutMS=2500");
    assertThat(settings.getWriteConcern().getWObject()).isEqualTo("majority");
    assertThat(settings.getWriteConcern().getJournal()).isTrue();
    assertThat(settings.getWriteConcern().getWTimeout(TimeUnit.MILLISECONDS)).isEqualTo(2500);
    assertThat(settings.getRetryWrites()).isTrue();
  }

  @Test
  void retryableWritesTurnedOffAreAWeakness() {
    assertThat(StoreWriteSafety.weakness(WriteConcern.MAJORITY, false)).hasValueSatisfying(why ->
        assertThat(why).contains("retryWrites=false"));
  }
}
