package dev.lipa.checkout;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.lipa.checkout.session.CheckoutSessionStore;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.StoreProxyInitializer;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import dev.lipa.common.testsupport.TopicRecorder;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The one Spring context of this module's integration tests: the real service on a random port over the shared broker
 * and store (reached through the {@link dev.lipa.common.testsupport.StoreProxy}, so a test can fail it under the
 * service), with a local HTTP stub standing in for collections-service. Tests use a fresh organisation each.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.checkout.expiry-sweep-interval=300ms",
    "lipa.checkout.outbox.sweep-interval=1s",
    "lipa.checkout.outbox.grace-period=15s",
    "lipa.checkout.public-base-url=https://pay.example.test",
    "lipa.checkout.collections.internal-token=" + CollectionsStub.TOKEN,
    "lipa.callbacks.allow-private-targets=false",
    "lipa.operator.token=" + CheckoutIntegrationTest.OPERATOR_TOKEN})
@ContextConfiguration(initializers = StoreProxyInitializer.class)
public abstract class CheckoutIntegrationTest {

  protected static final String SESSIONS = "/api/sandbox/v1/checkout-sessions";
  protected static final String OPERATOR_TOKEN = "checkout-tests-operator-token-0123456789";
  protected static final Map<String, String> OPERATOR = Map.of("X-Operator-Token", OPERATOR_TOKEN);

  @LocalServerPort
  protected int port;

  @Autowired
  protected MongoDatabase database;

  private static KafkaProducer<String, String> producer;

  @DynamicPropertySource
  static void collections(DynamicPropertyRegistry registry) {
    registry.add("lipa.checkout.collections.uri", () -> CollectionsStub.shared().baseUrl());
  }

  @BeforeAll
  static void recordTopics() {
    TopicRecorder.start();
  }

  protected TestHttp http() {
    return new TestHttp("http://127.0.0.1:" + port);
  }

  protected static String newOrganisation() {
    return UUID.randomUUID().toString();
  }

  protected static Map<String, String> as(String organisationId) {
    return TestHttp.bearer(TestIssuer.shared().accessToken(organisationId));
  }

  protected static String body(String currency, String amount, String methods) {
    return """
        {"amount":%s,"currency":"%s","description":"Order 42: two mugs","successUrl":"https://shop.example/ok",
         "cancelUrl":"https://shop.example/cancel","paymentMethods":%s,"externalReference":"ORD-42",
         "customerEmail":"jane@example.com","customerPhone":"+254712345678","paymentReference":"PAY-42",
         "callbackUrl":"https://93.184.216.34/hooks/checkout"}""".formatted(amount, currency, methods);
  }

  protected static String cardAndMpesa() {
    return body("KES", "1500", "[\"CARD\",\"MPESA_STK\"]");
  }

  /** Creates a session and returns the 201 body. */
  protected JsonNode create(String organisationId, String body) {
    TestHttp.Response response = http().postJson(SESSIONS, body, as(organisationId));
    if (response.status() != 201) {
      throw new AssertionError("expected 201, got " + response.status() + ": " + response.body());
    }
    return response.json();
  }

  protected TestHttp.Response page(String ref, String path, String json) {
    return json == null ? http().get("/checkout/" + ref + path, Map.of())
        : http().postJson("/checkout/" + ref + path, json, Map.of());
  }

  /** Moves a session's end of life into the past, as if its lifetime had run out. */
  protected void ageOut(String sessionId) {
    database.getCollection(CheckoutSessionStore.COLLECTION).updateOne(Filters.eq("_id", sessionId),
        Updates.set("expiresAt", Date.from(Instant.now().minusSeconds(1))));
  }

  /**
   * Publishes an STK outcome on payments.collections.v1 as collections-service would, and returns where the broker put
   * it (for {@link dev.lipa.common.testsupport.TestKafka#awaitConsumed}).
   */
  protected static RecordMetadata publishStkOutcome(String organisationId, CollectionsStub.Call call, boolean succeeded) {
    String type = succeeded ? "stk.succeeded" : "stk.failed";
    String value = """
        {"eventId":"%s","type":"%s","version":1,"occurredAt":"%s","organisationId":"%s",
         "data":{"requestId":"%s","referenceId":"%s","phoneNumber":"254712345678","amount":%s,"currency":"KSH",
                 "status":"%s","resultCode":%d,"resultDescription":"%s","receipt":%s}}""".formatted(
        UUID.randomUUID(), type, Instant.now(), organisationId, call.requestId(),
        call.body().path("referenceId").asString(), call.body().path("amount"), succeeded ? "SUCCESS" : "FAILED",
        succeeded ? 0 : 1032, succeeded ? "The service request is processed successfully." : "Request cancelled by user",
        succeeded ? "\"SBX1234567\"" : "null");
    try {
      return producer().send(new ProducerRecord<>(Topics.COLLECTIONS, call.requestId(), value)).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not publish the outcome", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static synchronized KafkaProducer<String, String> producer() {
    if (producer == null) {
      Properties props = new Properties();
      props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
      props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
      props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
      producer = new KafkaProducer<>(props);
    }
    return producer;
  }
}
