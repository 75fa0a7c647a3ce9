package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import de.bwaldvogel.mongo.MongoServer;
import dev.lipa.store.StoreBackends;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reference payment end to end, in-process, on the platform's own store (its memory backend, over the wire) and a
 * real broker that creates no topics: a payment goes from accept to its final state, its ledger credit, one signed
 * callback at the bench's receiver and its delivery, with the records and write statements a payment needs; a refused
 * body writes nothing.
 */
class ReferencePipelineIntegrationTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Duration OUTCOME_DELAY = Duration.ofMillis(200);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  /** Write statements the pipeline sent to its database, as the store's counters count them. */
  private static final AtomicLong WRITES = new AtomicLong();

  private static MongoServer store;
  private static MongoClient mongo;
  private static MongoDatabase database;
  private static CallbackCounter receiver;
  private static ReferencePipeline pipeline;
  private static HttpClient http;

  @BeforeAll
  static void startThePipeline() throws Exception {
    store = new MongoServer(StoreBackends.memory());
    store.bind("127.0.0.1", 0);
    CommandListener countWrites = new CommandListener() {
      @Override
      public void commandStarted(CommandStartedEvent event) {
        if (ReferencePipeline.DATABASE.equals(event.getDatabaseName())) {
          WRITES.addAndGet(statements(event));
        }
      }
    };
    mongo = MongoClients.create(MongoClientSettings.builder()
        .applyConnectionString(new ConnectionString("mongodb://127.0.0.1:" + store.getLocalAddress().getPort()))
        .addCommandListener(countWrites)
        .build());
    database = mongo.getDatabase(ReferencePipeline.DATABASE);
    String secret = WebhookSigning.newSecret();
    receiver = new CallbackCounter(0, "reference-it").alongside("reference", WebhookSigning.key(secret));
    pipeline = ReferencePipeline.start(
        new ReferencePipeline.Settings(0, NoTopicsBroker.bootstrapServers(), OUTCOME_DELAY, secret), mongo);
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterAll
  static void stop() {
    pipeline.close();
    receiver.close();
    mongo.close();
    store.shutdownNow();
    http.close();
  }

  @Test
  void aPaymentIsAcceptedCompletedCreditedAndCalledBackOnceWithAValidSignatureThenItsDeliveryIsWritten()
      throws Exception {
    Map<String, Long> offsets = endOffsets();
    BigDecimal balance = available();
    long writes = WRITES.get();

    HttpResponse<String> answer = post(body("0712345678", 250, "Bench order"));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
    String requestId = JSON.readTree(answer.body()).path("data").path("requestId").asString();
    await().atMost(TIMEOUT).until(() -> delivery(requestId) != null);
    Document push = database.getCollection(ReferencePipeline.COLLECTION).find(new Document("_id", requestId)).first();
    assertThat(push).containsEntry("status", "SUCCESS").containsEntry("phoneNumber", "254712345678")
        .containsEntry("resultCode", 0).containsKey("receipt");
    CallbackCounter.Received callback = receiver.get(requestId);
    assertThat(callback.count).hasValue(1);
    assertThat(callback.webhookIds).containsExactly(push.getString("callbackId"));
    assertThat(receiver.badSignatures()).isZero();
    Document delivery = delivery(requestId);
    assertThat(delivery).containsEntry("_id", push.getString("callbackId")).containsEntry("status", "DELIVERED")
        .containsEntry("attempts", 1);
    assertThat(JSON.readTree(delivery.getString("body")).path("status").asString()).isEqualTo("SUCCESS");
    // the ledger's tick follows the outcome by at most 50 ms
    await().atMost(TIMEOUT).until(() -> available().subtract(balance).compareTo(new BigDecimal(250)) == 0);
    assertThat(database.getCollection(ReferenceLedger.ENTRIES)
        .find(new Document("_id", "stk.succeeded:" + requestId)).first()).isNotNull();
    // accepted and outcome on the STK topic, the callback request on the callbacks topic: 3 records
    List<String> records = typesSince(offsets, requestId, 3);
    assertThat(records).containsExactlyInAnyOrder(
        ReferencePipeline.TOPIC + " " + ReferenceEvents.ACCEPTED,
        ReferencePipeline.TOPIC + " " + ReferenceEvents.SUCCEEDED,
        ReferencePipeline.CALLBACKS_TOPIC + " " + ReferenceEvents.CALLBACK_REQUESTED);
    assertThat(records).as("one partition, in order").containsSubsequence(
        ReferencePipeline.TOPIC + " " + ReferenceEvents.ACCEPTED,
        ReferencePipeline.TOPIC + " " + ReferenceEvents.SUCCEEDED);
    // the push inserted, its compare-and-set, the ledger's entry and its $inc, the delivery: 5 statements
    assertThat(WRITES.get() - writes).isEqualTo(5);
  }

  @Test
  void theSandboxsCancelledNumberFailsTheSamePaymentWithoutACredit() throws Exception {
    HttpResponse<String> answer = post(body("+254700001032", 10, "Bench order"));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
    String requestId = JSON.readTree(answer.body()).path("data").path("requestId").asString();
    await().atMost(TIMEOUT).until(() -> delivery(requestId) != null);
    assertThat(database.getCollection(ReferencePipeline.COLLECTION).find(new Document("_id", requestId)).first())
        .containsEntry("status", "FAILED").containsEntry("resultCode", 1032).doesNotContainKey("receipt");
    assertThat(JSON.readTree(delivery(requestId).getString("body")).path("status").asString()).isEqualTo("FAILED");
    assertThat(receiver.get(requestId).count).hasValue(1);
    Thread.sleep(3 * ReferenceLedger.TICK.toMillis());
    assertThat(database.getCollection(ReferenceLedger.ENTRIES)
        .find(new Document("_id", "stk.succeeded:" + requestId)).first()).as("no credit").isNull();
  }

  @Test
  void aRefusedBodyIsAnswered400NamingEachFieldAndWritesNothing() throws Exception {
    Map<String, Long> offsets = endOffsets();
    long writes = WRITES.get();
    long callbacks = receiver.total();

    HttpResponse<String> answer = post("{\"description\":\"Far too long a description\",\"phoneNumber\":\"0212345678\","
        + "\"amount\":10.5,\"accountReference\":\"BENCH\",\"callbackUrl\":\"ftp://example.com/x\"}");

    assertThat(answer.statusCode()).isEqualTo(400);
    JsonNode errors = JSON.readTree(answer.body()).path("errors");
    assertThat(errors.propertyNames()).containsExactlyInAnyOrder("description", "phoneNumber", "amount",
        "callbackUrl");
    Thread.sleep(OUTCOME_DELAY.toMillis() + 3 * ReferenceLedger.TICK.toMillis());
    assertThat(WRITES.get()).as("write statements").isEqualTo(writes);
    assertThat(endOffsets()).as("records").isEqualTo(offsets);
    assertThat(receiver.total()).as("callbacks").isEqualTo(callbacks);
    assertThat(post("not json").statusCode()).isEqualTo(400);
  }

  private static String body(String phone, long amount, String description) {
    return "{\"description\":\"" + description + "\",\"phoneNumber\":\"" + phone + "\",\"amount\":" + amount
        + ",\"accountReference\":\"BENCH\",\"callbackUrl\":\"" + receiver.url() + "\"}";
  }

  private static HttpResponse<String> post(String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(pipeline.url()))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static Document delivery(String requestId) {
    return database.getCollection(ReferenceCallbacks.DELIVERIES).find(new Document("requestId", requestId)).first();
  }

  private static BigDecimal available() {
    Document account = database.getCollection(ReferenceLedger.ACCOUNTS)
        .find(new Document("_id", ReferencePipeline.ORGANISATION + ":KSH")).first();
    return account == null ? BigDecimal.ZERO : account.get("available", Decimal128.class).bigDecimalValue();
  }

  /** One per document of an insert, one per statement of an update or delete, as the store's counters count. */
  private static long statements(CommandStartedEvent event) {
    BsonDocument command = event.getCommand();
    return switch (event.getCommandName()) {
      case "insert" -> command.getArray("documents", new BsonArray()).size();
      case "update" -> command.getArray("updates", new BsonArray()).size();
      case "delete" -> command.getArray("deletes", new BsonArray()).size();
      case "findAndModify" -> 1;
      default -> 0;
    };
  }

  private static Map<String, Long> endOffsets() {
    try (KafkaConsumer<String, String> consumer = consumer()) {
      Map<String, Long> offsets = new TreeMap<>();
      consumer.endOffsets(partitions(consumer)).forEach((partition, offset) ->
          offsets.put(partition.toString(), offset));
      return offsets;
    }
  }

  /** "topic type" of the records with this key after the offsets (each partition's in order), until there are n. */
  private static List<String> typesSince(Map<String, Long> offsets, String key, int n) {
    try (KafkaConsumer<String, String> consumer = consumer()) {
      List<TopicPartition> partitions = partitions(consumer);
      consumer.assign(partitions);
      partitions.forEach(p -> consumer.seek(p, offsets.getOrDefault(p.toString(), 0L)));
      List<String> types = new ArrayList<>();
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (types.size() < n && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          if (key.equals(record.key())) {
            types.add(record.topic() + " " + JSON.readTree(record.value()).path("type").asString());
          }
        }
      }
      return types;
    }
  }

  private static List<TopicPartition> partitions(KafkaConsumer<String, String> consumer) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (String topic : ReferenceTopic.topics()) {
      consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
    }
    return partitions;
  }

  private static KafkaConsumer<String, String> consumer() {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, NoTopicsBroker.bootstrapServers());
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return new KafkaConsumer<>(properties);
  }
}
