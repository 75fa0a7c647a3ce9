package dev.lipa.common.kafka;

import static dev.lipa.common.kafka.ListenerTestApplication.AUDIT;
import static dev.lipa.common.kafka.ListenerTestApplication.BATCH_CREDITS;
import static dev.lipa.common.kafka.ListenerTestApplication.BATCH_TOPIC;
import static dev.lipa.common.kafka.ListenerTestApplication.CREDITS;
import static dev.lipa.common.kafka.ListenerTestApplication.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.organisations.OrganisationDirectory;
import dev.lipa.common.organisations.OrganisationDirectoryListener;
import dev.lipa.common.testsupport.ListenerCoverage;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.StoreProxy;
import dev.lipa.common.testsupport.StoreProxyInitializer;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestKafka;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;

/**
 * The platform's listener error handling in a small service of the tests' own ({@link ListenerTestApplication}) and
 * common's organisation directory, over the real broker and the real store, the store behind a {@link StoreProxy} the
 * tests cut and restore.
 */
@SpringBootTest(classes = ListenerTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "spring.application.name=listener-tests",
        "spring.mongodb.database=listener-tests",
        "spring.kafka.consumer.key-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
        "spring.kafka.consumer.value-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
        "spring.kafka.producer.key-serializer=org.apache.kafka.common.serialization.StringSerializer",
        "spring.kafka.producer.value-serializer=org.apache.kafka.common.serialization.StringSerializer",
        "lipa.organisations.directory.enabled=true",
        "lipa.operator.token=" + ListenerErrorHandlingIntegrationTests.OPERATOR_TOKEN,
        // short waits, so that many attempts fit in a test; the platform's are 200 ms doubling to 30 s
        "lipa.kafka.listeners.initial-interval=50ms",
        "lipa.kafka.listeners.max-interval=400ms",
        StoreProxyInitializer.TIMEOUT_PROPERTY + "=500"})
@ContextConfiguration(initializers = StoreProxyInitializer.class)
class ListenerErrorHandlingIntegrationTests {

  static final String OPERATOR_TOKEN = "listener-tests-operator-token-0123456789";
  static final String DEAD_LETTERS = "/admin/v1/dead-letters";
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Map<String, String> OPERATOR = Map.of("X-Operator-Token", OPERATOR_TOKEN);
  private static final ListAppender<ILoggingEvent> alerts = new ListAppender<>();

  static {
    alerts.setName("listener-alerts");
  }

  @Autowired
  ApplicationContext context;
  @Autowired
  ListenerTestApplication.TestAccounts accounts;
  @Autowired
  ListenerTestApplication.Audit audit;
  @Autowired
  DeadLetterStore deadLetters;
  @Autowired
  OrganisationDirectory directory;
  @Autowired
  MeterRegistry meters;
  @Autowired
  KafkaListenerEndpointRegistry registry;
  @LocalServerPort
  int port;

  @BeforeAll
  static void start() {
    alerts.start();
  }

  /** After the context started: Spring Boot's logging set-up replaces the appenders of a configuration it loads. */
  @BeforeEach
  void captureAlerts() {
    for (Class<?> source : List.of(ListenerAlerts.class, DeadLetterRecoverer.class)) {
      Logger logger = (Logger) LoggerFactory.getLogger(source);
      if (logger.getAppender(alerts.getName()) == null) {
        logger.addAppender(alerts);
      }
    }
  }

  @Autowired
  com.mongodb.client.MongoClient mongo;

  /** Restores the store and waits until the service's own client reaches it again (it may have marked it down). */
  @AfterEach
  void restoreTheStore() {
    boolean wasCut = StoreProxy.shared().isCut();
    StoreProxy.shared().restore();
    if (wasCut) {
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
          .until(() -> mongo.getDatabase("admin").runCommand(new org.bson.Document("ping", 1)) != null);
    }
  }

  TestHttp http() {
    return new TestHttp("http://127.0.0.1:" + port);
  }

  static void publish(String topic, String key, String... values) {
    TestKafka.publish(topic, key, values);
  }

  static String credit(String eventId, String account, String amount) {
    return """
        {"eventId":"%s","type":"test.credited","version":1,"data":{"account":"%s","amount":%s}}"""
        .formatted(eventId, account, amount);
  }

  static String id() {
    return UUID.randomUUID().toString();
  }

  double count(String meter, String listener) {
    Counter counter = meters.find(meter).tag("listener", listener).counter();
    return counter == null ? 0 : counter.count();
  }

  List<DeadLetter> deadLettersWithValue(String value) {
    return deadLetters.list(null, null, 0, 500).stream().filter(d -> value.equals(d.value())).toList();
  }

  DeadLetter awaitDeadLetter(String value) {
    await().atMost(PATIENCE).until(() -> deadLettersWithValue(value).size() == 1);
    return deadLettersWithValue(value).getFirst();
  }

  List<String> alertLines(String kind, String listener) {
    return alerts.list.stream().map(ILoggingEvent::getFormattedMessage)
        .filter(m -> m.startsWith(kind + " listener=" + listener + " ")).toList();
  }

  /** The records of a dead-letter topic, read from its beginning. */
  static List<ConsumerRecord<String, String>> readTopic(String topic, String expectedValue) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "dlt-reader-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
        new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      List<ConsumerRecord<String, String>> records = new ArrayList<>();
      Instant deadline = Instant.now().plus(PATIENCE);
      while (Instant.now().isBefore(deadline)
          && records.stream().noneMatch(r -> expectedValue.equals(r.value()))) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
      return records;
    }
  }

  static String header(ConsumerRecord<String, String> record, String name) {
    var header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  @Nested
  class PoisonRecords {

    @Test
    void deadLettersAnUnreadableRecordWithItsFailureAndAppliesTheRecordBehindIt() {
      String key = id();
      String poison = "{\"eventId\":\"" + id() + "\",\"type\":\"test.credited\",\"data\":{\"amount\": 10";
      String behind = id();
      double before = count(MicrometerListenerMeter.DEAD_LETTERS, CREDITS);

      publish(TOPIC, key, poison, credit(behind, "acc-1", "10"));

      await().atMost(PATIENCE).until(() -> accounts.applied(behind) == 1);
      DeadLetter letter = awaitDeadLetter(poison);
      assertThat(letter.listener()).isEqualTo(CREDITS);
      assertThat(letter.consumerGroup()).isEqualTo(CREDITS);
      assertThat(letter.topic()).isEqualTo(TOPIC);
      assertThat(letter.key()).isEqualTo(key);
      assertThat(letter.timestamp()).isNotNull();
      assertThat(letter.deadLetterTopic()).isEqualTo(TOPIC + "." + CREDITS + ".dlt");
      assertThat(letter.exceptionClass()).isEqualTo(UnprocessableRecordException.class.getName());
      assertThat(letter.exceptionMessage()).startsWith("not JSON");
      assertThat(letter.status()).isEqualTo(DeadLetter.Status.DEAD);
      assertThat(letter.attempts()).isEqualTo(1);
      assertThat(count(MicrometerListenerMeter.DEAD_LETTERS, CREDITS)).isEqualTo(before + 1);
      assertThat(alertLines(ListenerAlerts.DEAD_LETTER, CREDITS))
          .anyMatch(line -> line.contains("partition=" + letter.partition() + " offset=" + letter.offset() + " ")
              && line.contains("id=" + letter.id()));

      List<ConsumerRecord<String, String>> published = readTopic(letter.deadLetterTopic(), poison);
      ConsumerRecord<String, String> copy = published.stream().filter(r -> poison.equals(r.value())).findFirst()
          .orElseThrow();
      assertThat(copy.key()).isEqualTo(key);
      assertThat(header(copy, "kafka_dlt-original-topic")).isEqualTo(TOPIC);
      assertThat(header(copy, "kafka_dlt-original-consumer-group")).isEqualTo(CREDITS);
      assertThat(header(copy, "kafka_dlt-exception-fqcn")).isEqualTo(UnprocessableRecordException.class.getName());
      assertThat(header(copy, "kafka_dlt-exception-message")).startsWith("not JSON");
    }

    @Test
    void deadLettersARecordOnlyForTheConsumerThatCannotProcessIt() {
      String refused = credit(id(), "acc-2", "-5");

      publish(TOPIC, id(), refused);

      DeadLetter letter = awaitDeadLetter(refused);
      assertThat(letter.listener()).isEqualTo(CREDITS);
      assertThat(letter.exceptionMessage()).isEqualTo("data.amount must be a positive number");
      // the audit group read the same record without trouble: no dead letter of its own
      await().atMost(PATIENCE).until(() -> audit.seen(refused) == 1);
      assertThat(deadLettersWithValue(refused)).extracting(DeadLetter::consumerGroup).containsExactly(CREDITS);
    }

    @Test
    void skipsAnEventOfAnotherTypeWithoutADeadLetter() {
      String key = id();
      String other = "{\"eventId\":\"" + id() + "\",\"type\":\"test.refunded\",\"data\":{}}";
      String behind = id();

      publish(TOPIC, key, other, credit(behind, "acc-3", "1"));

      await().atMost(PATIENCE).until(() -> accounts.applied(behind) == 1);
      assertThat(deadLettersWithValue(other)).isEmpty();
    }

    @Test
    void deadLettersTheBadRecordOfABatchAlone() {
      String key = id();
      String first = id();
      String last = id();
      String bad = credit(id(), "acc-4", "\"ten\"");

      publish(BATCH_TOPIC, key, credit(first, "acc-4", "1"), bad, credit(last, "acc-4", "2"));

      await().atMost(PATIENCE).until(() -> accounts.applied(first) == 1 && accounts.applied(last) == 1);
      DeadLetter letter = awaitDeadLetter(bad);
      assertThat(letter.listener()).isEqualTo(BATCH_CREDITS);
      assertThat(letter.deadLetterTopic()).isEqualTo(BATCH_TOPIC + "." + BATCH_CREDITS + ".dlt");
    }
  }

  @Nested
  class StoreOutages {

    @Test
    void retriesWithoutLimitWhileTheStoreIsDownAndLosesNoDirectoryChange() {
      String listener = OrganisationDirectoryListener.LISTENER_ID;
      List<String> organisations = List.of(id(), id(), id());
      double before = count(MicrometerListenerMeter.RETRIES, listener);

      StoreProxy.shared().cut();
      organisations.forEach(org -> publish(Topics.ORGANISATIONS, org, profile(org, 1, "Duka " + org)));
      // more attempts than spring-kafka's default handler makes before it gives a record up
      await().atMost(PATIENCE).until(() -> count(MicrometerListenerMeter.RETRIES, listener) >= before + 12);
      assertThat(alertLines(ListenerAlerts.RETRY, listener)).anyMatch(line -> line.matches(
          ".* group=listener-tests-organisations topic=payments\\.organisations\\.v1 partition=\\d+ offset=\\d+ "
              + "attempt=\\d+ retry-in=\\d+ms \\(consumer paused\\): com\\.mongodb\\.Mongo.*"));
      StoreProxy.shared().restore();

      await().atMost(PATIENCE).until(() -> organisations.stream().allMatch(org -> directory.byId(OrganisationId.of(org)).isPresent()));
      // the consumer resumed by itself: a change after the outage is applied too
      publish(Topics.ORGANISATIONS, organisations.getFirst(), profile(organisations.getFirst(), 2, "Renamed"));
      await().atMost(PATIENCE).until(() -> directory.byId(OrganisationId.of(organisations.getFirst())).orElseThrow().revision() == 2);
      assertThat(registry.getListenerContainer(listener).isPauseRequested()).isFalse();
      organisations.forEach(org -> assertThat(deadLetters.list(null, listener, 0, 500))
          .noneMatch(d -> org.equals(d.key())));
    }

    @Test
    void writesTheDeadLetterOnceTheStoreIsBackAndAppliesTheRecordsBehindIt() {
      String key = id();
      String poison = credit(id(), "acc-5", "0");
      String behind = id();

      StoreProxy.shared().cut();
      publish(TOPIC, key, poison, credit(behind, "acc-5", "3"));
      await().atMost(PATIENCE).until(() -> alertLines(ListenerAlerts.DEAD_LETTER_FAILED, CREDITS).size() >= 2);
      StoreProxy.shared().restore();

      await().atMost(PATIENCE).until(() -> accounts.applied(behind) == 1);
      DeadLetter letter = awaitDeadLetter(poison);
      assertThat(letter.status()).isEqualTo(DeadLetter.Status.DEAD);
      assertThat(letter.attempts()).isEqualTo(1);
      assertThat(letter.exceptionMessage()).isEqualTo("data.amount must be a positive number");
    }

    @Test
    void retriesAWholeBatchWhileTheStoreIsDownAndAppliesItOnce() {
      String key = id();
      List<String> events = List.of(id(), id(), id());
      double before = count(MicrometerListenerMeter.RETRIES, BATCH_CREDITS);

      StoreProxy.shared().cut();
      publish(BATCH_TOPIC, key, events.stream().map(e -> credit(e, "acc-6", "5")).toArray(String[]::new));
      await().atMost(PATIENCE).until(() -> count(MicrometerListenerMeter.RETRIES, BATCH_CREDITS) >= before + 3);
      StoreProxy.shared().restore();

      await().atMost(PATIENCE).until(() -> events.stream().allMatch(e -> accounts.applied(e) == 1));
      events.forEach(e -> assertThat(deadLetters.list(null, BATCH_CREDITS, 0, 500))
          .noneMatch(d -> d.value().contains(e)));
    }

    private static String profile(String organisationId, long revision, String name) {
      return """
          {"eventId":"%s","type":"organisation.upserted","version":1,"organisationId":"%s",
           "data":{"organisationId":"%s","id":7,"name":"%s","environment":"sandbox","revision":%d,
                   "createdAt":"2025-03-01T08:00:00Z","updatedAt":"2025-03-01T08:00:00Z"}}"""
          .formatted(id(), organisationId, organisationId, name, revision);
    }
  }

  @Nested
  class ListDeadLetters {

    @Test
    void refusesCallersWithoutTheOperatorToken() {
      assertThat(http().get(DEAD_LETTERS, Map.of()).status()).isEqualTo(401);
      assertThat(http().get(DEAD_LETTERS, Map.of("X-Operator-Token", "wrong")).status()).isEqualTo(401);
    }

    @Test
    void listsTheNewestFirstAndFiltersByListenerAndStatus() {
      String older = credit(id(), "acc-7", "-1");
      String newer = credit(id(), "acc-7", "-2");
      publish(TOPIC, id(), older);
      awaitDeadLetter(older);
      publish(TOPIC, id(), newer);
      awaitDeadLetter(newer);

      TestHttp.Response response = http().get(DEAD_LETTERS + "?listener=" + CREDITS + "&status=dead&size=500",
          OPERATOR);

      assertThat(response.status()).isEqualTo(200);
      List<String> values = new ArrayList<>();
      for (JsonNode letter : response.json().path("data")) {
        assertThat(letter.path("listener").asString()).isEqualTo(CREDITS);
        assertThat(letter.path("status").asString()).isEqualTo("DEAD");
        values.add(letter.path("value").asString());
      }
      assertThat(values).containsSubsequence(newer, older);
      assertThat(http().get(DEAD_LETTERS + "?listener=" + AUDIT, OPERATOR).json().path("data")).isEmpty();
    }

    @Test
    void answers503NotA500WhileTheStoreIsDown() {
      StoreProxy.shared().cut();

      TestHttp.Response response = http().get(DEAD_LETTERS, OPERATOR);

      // the operator audit log, which records every operator call first, refuses it before the dead-letter store can:
      // either way a 503 saying nothing was done, never a 500
      assertThat(response.status()).isEqualTo(503);
      assertThat(response.json().path("message").asString()).isIn(
          "the service's store is unavailable; try again later",
          "the audit log is unavailable; nothing was done, try again later");
    }

    @Test
    void refusesAnUnknownStatusAndASizeOutOfBounds() {
      TestHttp.Response response = http().get(DEAD_LETTERS + "?status=LOST&size=501", OPERATOR);

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().path("errors").propertyNames()).containsExactlyInAnyOrder("status", "size");
    }
  }

  @Nested
  class GetDeadLetter {

    @Test
    void showsOneDeadLetter() {
      String refused = credit(id(), "acc-8", "-1");
      publish(TOPIC, id(), refused);
      DeadLetter letter = awaitDeadLetter(refused);

      TestHttp.Response response = http().get(DEAD_LETTERS + "/" + letter.id(), OPERATOR);

      assertThat(response.status()).isEqualTo(200);
      JsonNode data = response.json().path("data");
      assertThat(data.propertyNames()).containsExactly("id", "listener", "consumerGroup", "topic", "partition",
          "offset", "timestamp", "key", "value", "deadLetterTopic", "exceptionClass", "exceptionMessage", "status",
          "attempts", "deadAt", "lastFailedAt", "replays", "lastReplayedAt");
      assertThat(data.path("value").asString()).isEqualTo(refused);
      assertThat(data.path("offset").asLong()).isEqualTo(letter.offset());
    }

    @Test
    void answers404ForAnUnknownId() {
      TestHttp.Response response = http().get(DEAD_LETTERS + "/" + id(), OPERATOR);

      assertThat(response.status()).isEqualTo(404);
      assertThat(response.json().path("message").asString()).isEqualTo("dead letter not found");
    }
  }

  @Nested
  class ReplayDeadLetter {

    @Test
    void appliesTheRecordOnceItsConsumerCanProcessItAndStillOnceWhenReplayedTwice() {
      String account = "acc-" + id();
      String eventId = id();
      String value = credit(eventId, account, "25");
      accounts.notOpen.add(account);
      publish(TOPIC, id(), value);
      DeadLetter letter = awaitDeadLetter(value);
      await().atMost(PATIENCE).until(() -> audit.seen(value) == 1);
      assertThat(accounts.applied(eventId)).isZero();

      accounts.notOpen.remove(account); // the fix
      TestHttp.Response first = http().postJson(DEAD_LETTERS + "/" + letter.id() + "/replay", "", OPERATOR);
      TestHttp.Response second = http().postJson(DEAD_LETTERS + "/" + letter.id() + "/replay", "", OPERATOR);

      assertThat(first.status()).isEqualTo(200);
      assertThat(first.json().path("data").path("status").asString()).isEqualTo("REPLAYED");
      assertThat(second.status()).isEqualTo(200);
      assertThat(second.json().path("data").path("replays").asInt()).isEqualTo(2);
      assertThat(accounts.applied(eventId)).isEqualTo(1);
      // only the consumer that failed saw it again; nothing was published
      assertThat(audit.seen(value)).isEqualTo(1);
      assertThat(deadLetters.find(letter.id()).orElseThrow().lastReplayedAt()).isNotNull();
    }

    @Test
    void keepsTheRecordDeadWithItsNewFailureWhenTheConsumerStillCannotProcessIt() {
      String account = "acc-" + id();
      String value = credit(id(), account, "25");
      accounts.notOpen.add(account);
      publish(TOPIC, id(), value);
      DeadLetter letter = awaitDeadLetter(value);

      TestHttp.Response response = http().postJson(DEAD_LETTERS + "/" + letter.id() + "/replay", "", OPERATOR);

      assertThat(response.status()).isEqualTo(422);
      assertThat(response.json().path("message").asString())
          .isEqualTo("the listener still cannot process the record: account " + account + " is not open");
      DeadLetter after = deadLetters.find(letter.id()).orElseThrow();
      assertThat(after.status()).isEqualTo(DeadLetter.Status.DEAD);
      assertThat(after.attempts()).isEqualTo(2);
      assertThat(after.replays()).isZero();
    }

    @Test
    void changesNothingWhenTheListenerFailsForAnotherReason() {
      String account = "acc-" + id();
      String value = credit(id(), account, "25");
      accounts.notOpen.add(account);
      publish(TOPIC, id(), value);
      DeadLetter letter = awaitDeadLetter(value);
      accounts.notOpen.remove(account);
      accounts.unavailable.add(account);

      TestHttp.Response response = http().postJson(DEAD_LETTERS + "/" + letter.id() + "/replay", "", OPERATOR);

      assertThat(response.status()).isEqualTo(503);
      assertThat(response.json().path("message").asString()).isEqualTo(
          "the listener could not finish (IllegalStateException); nothing changed, try again later");
      assertThat(deadLetters.find(letter.id()).orElseThrow()).isEqualTo(letter);
    }

    @Test
    void answers404ForAnUnknownId() {
      assertThat(http().postJson(DEAD_LETTERS + "/" + id() + "/replay", "", OPERATOR).status()).isEqualTo(404);
    }

    @Test
    void refusesCallersWithoutTheOperatorToken() {
      assertThat(http().postJson(DEAD_LETTERS + "/" + id() + "/replay", "", Map.of()).status()).isEqualTo(401);
    }
  }

  @Nested
  class Coverage {

    @Test
    void everyListenerContainerHasThePlatformErrorHandlerEvenWhenItsFactorySetItsOwn() {
      assertThat(registry.getListenerContainerIds()).contains(CREDITS, BATCH_CREDITS, AUDIT,
          OrganisationDirectoryListener.LISTENER_ID);

      ListenerCoverage.assertEveryListenerHasThePlatformErrorHandler(context, "dev.lipa.common");
    }
  }
}
