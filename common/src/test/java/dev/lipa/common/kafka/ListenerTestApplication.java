package dev.lipa.common.kafka;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.bson.Document;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.FixedBackOff;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small service of the tests' own, wired as the platform's services are (auto-configuration only): a record
 * listener and a batch listener that credit accounts in the store with an eventId dedupe, as the ledger does, and a
 * second consumer group on the record listener's topic that only counts what it sees. The batch listener's factory
 * sets an error handler of its own, as a service might, to show the platform's replaces it.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ListenerTestApplication.Credits.class, ListenerTestApplication.BatchCredits.class,
    ListenerTestApplication.Audit.class})
class ListenerTestApplication {

  static final String TOPIC = "test.listener-credits.v1";
  static final String BATCH_TOPIC = "test.listener-batch-credits.v1";
  static final String CREDITS = "test-credits";
  static final String BATCH_CREDITS = "test-batch-credits";
  static final String AUDIT = "test-credits-audit";
  static final String CREDITED = "test.credited";

  @Bean
  MeterRegistry meterRegistry() {
    return new SimpleMeterRegistry();
  }

  @Bean
  TestAccounts testAccounts(MongoClient client, @Value("${spring.mongodb.database}") String database) {
    return new TestAccounts(client.getDatabase(database).getCollection("test_credits"));
  }

  @Bean
  ConcurrentKafkaListenerContainerFactory<Object, Object> customBatchFactory(
      ConcurrentKafkaListenerContainerFactoryConfigurer configurer, ConsumerFactory<Object, Object> consumerFactory) {
    ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
    configurer.configure(factory, consumerFactory);
    factory.setBatchListener(true);
    factory.getContainerProperties().setAckMode(ContainerProperties.AckMode.BATCH);
    // two attempts, then skip: what the platform's handler must replace
    factory.setCommonErrorHandler(new DefaultErrorHandler(new FixedBackOff(0, 1)));
    return factory;
  }

  /** A credit an event asks for. */
  record Credit(String eventId, String account, BigDecimal amount) {
  }

  /**
   * The accounts: a credit is stored once per eventId (the dedupe every platform consumer has). Accounts can be
   * "not open yet" (the consumer refuses their credits, deterministically, until a fix opens them) or "unavailable"
   * (the consumer fails as if its store were down).
   */
  static final class TestAccounts {

    final Set<String> notOpen = ConcurrentHashMap.newKeySet();
    final Set<String> unavailable = ConcurrentHashMap.newKeySet();
    private final MongoCollection<Document> credits;

    TestAccounts(MongoCollection<Document> credits) {
      this.credits = credits;
    }

    void credit(List<Credit> batch) {
      for (Credit credit : batch) {
        if (notOpen.contains(credit.account())) {
          throw new UnprocessableRecordException("account " + credit.account() + " is not open");
        }
        if (unavailable.contains(credit.account())) {
          throw new IllegalStateException("the accounts of " + credit.account() + " cannot be reached");
        }
        try {
          credits.insertOne(new Document("_id", credit.eventId()).append("account", credit.account())
              .append("amount", credit.amount()));
        } catch (MongoWriteException e) {
          if (e.getError().getCode() != 11000) {
            throw e;
          }
          // already credited: a redelivery or a replay
        }
      }
    }

    long applied(String eventId) {
      return credits.countDocuments(Filters.eq("_id", eventId));
    }

    /** The credit an event asks for; null for another type; refused when it can never be one. */
    static Credit read(JsonMapper json, String value) {
      JsonNode event = RecordJson.parse(json, value);
      if (!CREDITED.equals(event.path("type").asString(""))) {
        return null;
      }
      JsonNode amount = event.path("data").path("amount");
      if (!amount.isNumber() || amount.decimalValue().signum() <= 0) {
        throw new UnprocessableRecordException("data.amount must be a positive number");
      }
      return new Credit(event.path("eventId").asString(), event.path("data").path("account").asString(),
          amount.decimalValue());
    }
  }

  static class Credits {

    private final TestAccounts accounts;
    private final JsonMapper json;

    Credits(TestAccounts accounts, JsonMapper json) {
      this.accounts = accounts;
      this.json = json;
    }

    @KafkaListener(id = CREDITS, groupId = CREDITS, topics = TOPIC, properties = "auto.offset.reset=earliest")
    void onEvent(String value) {
      Credit credit = TestAccounts.read(json, value);
      if (credit != null) {
        accounts.credit(List.of(credit));
      }
    }
  }

  static class BatchCredits {

    private final TestAccounts accounts;
    private final JsonMapper json;

    BatchCredits(TestAccounts accounts, JsonMapper json) {
      this.accounts = accounts;
      this.json = json;
    }

    @KafkaListener(id = BATCH_CREDITS, groupId = BATCH_CREDITS, topics = BATCH_TOPIC,
        containerFactory = "customBatchFactory", batch = "true", properties = "auto.offset.reset=earliest")
    void onEvents(List<ConsumerRecord<String, String>> records) {
      RecordBatches.readThenApply(records, r -> TestAccounts.read(json, r.value()), accounts::credit);
    }
  }

  /** Another consumer group of the same topic, which accepts everything and counts what it sees by value. */
  static class Audit {

    final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();

    @KafkaListener(id = AUDIT, groupId = AUDIT, topics = TOPIC, properties = "auto.offset.reset=earliest")
    void onEvent(String value) {
      seen.computeIfAbsent(value, v -> new AtomicInteger()).incrementAndGet();
    }

    int seen(String value) {
      AtomicInteger count = seen.get(value);
      return count == null ? 0 : count.get();
    }
  }
}
