package dev.lipa.dispatcher;

import static dev.lipa.common.testsupport.LiveStack.live;
import static dev.lipa.common.testsupport.LiveStack.sandbox;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.common.callbacks.CallbackUrlGuard;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.LiveStack;
import dev.lipa.common.testsupport.SharedInfraInitializer;
import dev.lipa.common.testsupport.TestHttp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.context.ContextConfiguration;

/**
 * This module's one live-mode context: the dispatcher started with {@code lipa.environment=live} over the shared
 * broker and store, with the local setting that lets callbacks reach loopback (where this test's receiver listens),
 * which live ignores: a live callback goes to a public https address or nowhere.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.environment=live",
    "lipa.callbacks.allow-private-targets=true",
    "lipa.dispatcher.retry-delays=200ms",
    "lipa.dispatcher.poll-interval=50ms",
    "lipa.dispatcher.signing.encryption-key=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
class LiveDispatcherIntegrationTests {

  private static final Duration KAFKA_WAIT = Duration.ofSeconds(20);
  private static final TestReceiver receiver = TestReceiver.start();

  @Autowired
  KafkaTemplate<String, String> kafka;
  @Autowired
  MongoDatabase database;
  @Autowired
  KafkaListenerEndpointRegistry listeners;
  @Autowired
  CallbackUrlGuard guard;
  @LocalServerPort
  int port;

  @AfterAll
  static void stopReceiver() {
    receiver.close();
  }

  @Test
  void keepsItsDeliveriesInItsOwnDatabaseAndReadsTheLiveTopicOnly() {
    assertThat(database.getName()).isEqualTo("lipa-dispatcher-live");
    LiveStack.assertListenersAreLive(listeners.getListenerContainers());
    assertThat(listeners.getListenerContainers()).flatExtracting(c -> List.of(c.getContainerProperties().getTopics()))
        .contains("live.payments.callbacks.v1").doesNotContain(Topics.CALLBACKS);
  }

  @Test
  void guardsCallbacksFullyWhateverTheLocalSettingSays() {
    assertThat(guard.allowsPrivateTargets()).isFalse();
    assertThat(guard.httpsOnly()).isTrue();
  }

  @Test
  void refusesASandboxKeysTokenOnTheMerchantsCallbackApi() {
    String org = UUID.randomUUID().toString();
    TestHttp http = new TestHttp("http://127.0.0.1:" + port);

    String list = "/api/v1/callbacks?requestId=" + UUID.randomUUID();

    TestHttp.Response refused = http.get(list, sandbox(org));

    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.json().get("message").stringValue()).isEqualTo(Environment.SANDBOX.wrongPathMessage());
    assertThat(http.postJson("/api/v1/callbacks/signing-secret", "{}", sandbox(org)).status()).isEqualTo(403);
    assertThat(database.getCollection("signing_secrets").countDocuments(Filters.eq("organisationId", org))).isZero();
    assertThat(http.get(list, live(org)).status()).isEqualTo(200);
  }

  @Test
  void sendsNothingToAnHttpOrPrivateAddressAndNeverReadsTheSandboxsRequests() {
    // a sandbox dispatcher of another test class may be running in this JVM and deliver the sandbox's request: only
    // the live one must never store it
    String fromSandbox = UUID.randomUUID().toString();
    produce(Topics.CALLBACKS, fromSandbox, receiver.url("/merchant/" + UUID.randomUUID()));
    String clearText = UUID.randomUUID().toString();
    String path = "/merchant/" + UUID.randomUUID();
    produce(StackEnvironment.LIVE.topic(Topics.CALLBACKS), clearText, receiver.url(path));
    String loopback = UUID.randomUUID().toString();
    produce(StackEnvironment.LIVE.topic(Topics.CALLBACKS), loopback, receiver.url(path).replace("http:", "https:"));

    Document refusedScheme = awaitDead(clearText);
    Document refusedAddress = awaitDead(loopback);

    assertThat(refusedScheme.getList("attemptLog", Document.class)).singleElement()
        .satisfies(a -> assertThat(a.getString("error")).contains("https"));
    assertThat(refusedAddress.getList("attemptLog", Document.class)).singleElement()
        .satisfies(a -> assertThat(a.getString("error")).startsWith("destination refused"));
    assertThat(deliveries().find(Filters.eq("_id", fromSandbox)).first()).isNull();
    assertThat(receiver.received(path)).isEmpty();
  }

  private void produce(String topic, String callbackId, String url) {
    String requestId = UUID.randomUUID().toString();
    String value = """
        {"eventId":"%s","type":"callback.requested","version":1,"occurredAt":"%s","organisationId":"%s",\
        "data":{"callbackId":"%s","requestId":"%s","url":"%s","kind":"stk","body":{"requestId":"%s"}}}"""
        .formatted(UUID.randomUUID(), Instant.now(), UUID.randomUUID(), callbackId, requestId, url, requestId);
    try {
      kafka.send(topic, requestId, value).get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private MongoCollection<Document> deliveries() {
    return database.getCollection("deliveries");
  }

  private Document awaitDead(String callbackId) {
    return await().atMost(KAFKA_WAIT).pollInterval(Duration.ofMillis(50))
        .until(() -> deliveries().find(Filters.eq("_id", callbackId)).first(),
            d -> d != null && "DEAD".equals(d.getString("status")));
  }
}
