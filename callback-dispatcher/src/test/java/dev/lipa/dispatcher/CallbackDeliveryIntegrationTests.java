package dev.lipa.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.ListenerCoverage;
import dev.lipa.common.testsupport.PathRuleChecks.Protected;
import dev.lipa.common.testsupport.PathRuleChecks;
import dev.lipa.common.testsupport.SharedInfraInitializer;
import dev.lipa.common.testsupport.StoredShape;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import dev.lipa.common.testsupport.TestKafka;
import dev.lipa.dispatcher.TestReceiver.Received;
import dev.lipa.dispatcher.TestReceiver.Reply;
import dev.lipa.dispatcher.signing.WebhookSignature;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.dispatcher.retry-delays=200ms,200ms,200ms",
    "lipa.dispatcher.request-timeout=700ms",
    "lipa.dispatcher.connect-timeout=500ms",
    "lipa.dispatcher.poll-interval=50ms",
    "lipa.dispatcher.lease-duration=3s",
    "lipa.dispatcher.max-concurrent-attempts=16",
    "lipa.dispatcher.per-host-concurrency=4",
    "lipa.dispatcher.host-permit-wait=50ms",
    "lipa.dispatcher.defer-delay=200ms",
    "lipa.dispatcher.breaker-open-duration=2s",
    "lipa.operator.token=" + CallbackDeliveryIntegrationTests.OPERATOR_TOKEN,
    "lipa.dispatcher.signing.rotation-window=1h",
    "lipa.dispatcher.signing.encryption-key=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
    // the receivers of these tests listen on loopback
    "lipa.callbacks.allow-private-targets=true"})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
class CallbackDeliveryIntegrationTests {

  static final String OPERATOR_TOKEN = "test-operator-token-0123456789abcdef";
  private static final Duration KAFKA_WAIT = Duration.ofSeconds(20);
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final TestReceiver receiver = TestReceiver.start();
  /** Stands in for a service of the platform: its port is one of the platform's own (set below). */
  private static final TestReceiver platformService = TestReceiver.start();

  @DynamicPropertySource
  static void platformPorts(DynamicPropertyRegistry registry) {
    registry.add("lipa.callbacks.platform-ports", () -> "8080-8085," + platformService.port());
  }

  @Autowired
  KafkaTemplate<String, String> kafka;
  @Autowired
  MongoClient mongo;
  @Autowired
  ApplicationContext context;
  @LocalServerPort
  int port;

  TestHttp http() {
    return new TestHttp("http://127.0.0.1:" + port);
  }

  static Map<String, String> as(String organisationId) {
    return TestHttp.bearer(TestIssuer.shared().accessToken(organisationId));
  }

  @AfterAll
  static void stopReceiver() {
    receiver.close();
    platformService.close();
  }

  /** A callback request for a fresh organisation, sent to a fresh path of the receiver. */
  record Request(String eventId, String organisationId, String requestId, String callbackId, String path,
      String body) {

    static Request fresh() {
      String requestId = UUID.randomUUID().toString();
      return new Request(UUID.randomUUID().toString(), UUID.randomUUID().toString(), requestId,
          UUID.randomUUID().toString(), "/merchant/" + UUID.randomUUID(),
          "{\"requestId\":\"" + requestId + "\",\"status\":\"SUCCESS\",\"amount\":100.50,"
              + "\"phoneNumber\":\"254708374149\"}");
    }

    String record(String url) {
      return """
          {"eventId":"%s","type":"callback.requested","version":1,"occurredAt":"%s","organisationId":"%s",\
          "data":{"callbackId":"%s","requestId":"%s","url":"%s","kind":"stk","body":%s}}"""
          .formatted(eventId, Instant.now(), organisationId, callbackId, requestId, url, body);
    }
  }

  void produce(Request request) {
    produce(request.requestId(), request.record(receiver.url(request.path())));
  }

  RecordMetadata produce(String key, String value) {
    try {
      return kafka.send(Topics.CALLBACKS, key, value).get().getRecordMetadata();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  MongoCollection<Document> deliveries() {
    return mongo.getDatabase("lipa-dispatcher").getCollection("deliveries");
  }

  Document delivery(String callbackId) {
    return deliveries().find(Filters.eq("_id", callbackId)).first();
  }

  Document awaitStatus(String callbackId, String status, Duration wait) {
    return await().atMost(wait).pollInterval(Duration.ofMillis(50))
        .until(() -> delivery(callbackId), d -> d != null && status.equals(d.getString("status")));
  }

  List<Document> attemptLog(Document delivery) {
    return delivery.getList("attemptLog", Document.class);
  }

  /**
   * The callback POST carries the payment's trace: the {@code traceparent} of the record that asked for it (the
   * outbox relay's span of the payment's trace), kept with the delivery so that a retry carries it too.
   */
  @Nested
  class Traces {

    static final String PAYMENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    void produceTraced(Request request, String traceparent) {
      ProducerRecord<String, String> record = new ProducerRecord<>(Topics.CALLBACKS, request.requestId(),
          request.record(receiver.url(request.path())));
      record.headers().add("traceparent", traceparent.getBytes(StandardCharsets.US_ASCII));
      // a plain producer, as the outbox relay is: the template's own observation would add a traceparent of its own
      TestKafka.send(record);
    }

    @Test
    void thePostAndItsRetryCarryTheTraceOfTheRecordThatAskedForIt() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.status(500), Reply.status(200));
      produceTraced(request, "00-" + PAYMENT_TRACE + "-00f067aa0ba902b7-01");

      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      assertThat(delivered.getString("traceparent")).startsWith("00-" + PAYMENT_TRACE + "-");
      List<Received> posts = receiver.received(request.path());
      assertThat(posts).hasSize(2).allSatisfy(post ->
          assertThat(post.header("traceparent")).matches("00-" + PAYMENT_TRACE + "-[0-9a-f]{16}-[0-9a-f]{2}"));
      // each attempt is a span of its own in that trace
      assertThat(posts.get(0).header("traceparent")).isNotEqualTo(posts.get(1).header("traceparent"));
    }

    @Test
    void aMalformedTraceparentOnTheRecordIsNotPassedToTheMerchant() {
      Request request = Request.fresh();
      produceTraced(request, "00-" + PAYMENT_TRACE + "-00f067aa0ba902b7-01\r\nX-Injected: yes");

      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      Received post = receiver.received(request.path()).getFirst();
      assertThat(post.header("X-Injected")).isNull();
      assertThat(post.header("traceparent")).doesNotContain(PAYMENT_TRACE)
          .matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    }
  }

  @Nested
  class Intake {

    @Test
    void postsTheRequestedBodyExactlyOnceWithItsHeaders() {
      Request request = Request.fresh();
      produce(request);

      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      List<Received> received = receiver.received(request.path());
      assertThat(received).hasSize(1);
      Received post = received.getFirst();
      assertThat(post.method()).isEqualTo("POST");
      assertThat(post.body()).isEqualTo(request.body());
      assertThat(post.header("Content-Type")).isEqualTo("application/json");
      assertThat(post.header("User-Agent")).isEqualTo("lipa-callbacks/1");
      assertThat(post.header("webhook-id")).isEqualTo(request.callbackId());
      assertThat(post.header("Idempotency-Key")).isEqualTo(request.callbackId());
      assertThat(delivered.getString("organisationId")).isEqualTo(request.organisationId());
      assertThat(delivered.getString("requestId")).isEqualTo(request.requestId());
      assertThat(delivered.getString("body")).isEqualTo(request.body());
      assertThat(delivered.getString("kind")).isEqualTo("stk");
      assertThat(delivered.getInteger("attempts")).isEqualTo(1);
      assertThat(delivered.get("leaseUntil")).isNull();
      assertThat(attemptLog(delivered)).singleElement().satisfies(attempt -> {
        assertThat(attempt.getInteger("attempt")).isEqualTo(1);
        assertThat(attempt.getInteger("statusCode")).isEqualTo(200);
        assertThat(attempt.getString("error")).isNull();
        assertThat(attempt.getString("url")).isEqualTo(receiver.url(request.path()));
      });
    }

    @Test
    void storesAndSendsARecordProducedTwiceOnlyOnce() {
      Request request = Request.fresh();
      Request marker = new Request(UUID.randomUUID().toString(), request.organisationId(), request.requestId(),
          UUID.randomUUID().toString(), "/merchant/" + UUID.randomUUID(), request.body());
      produce(request);
      produce(request);
      // same key, so same partition: once the marker is delivered the duplicate has been consumed before it
      produce(marker);

      awaitStatus(marker.callbackId(), "DELIVERED", KAFKA_WAIT);
      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", WAIT);

      assertThat(receiver.received(request.path())).hasSize(1);
      assertThat(deliveries().countDocuments(Filters.eq("_id", request.callbackId()))).isEqualTo(1);
      assertThat(delivered.getInteger("attempts")).isEqualTo(1);
    }

    @Test
    void deadLettersAMalformedRecordAndKeepsConsuming() {
      Request request = Request.fresh();
      String notJson = "{not json " + request.requestId();
      String noBody = "{\"eventId\":\"" + request.eventId() + "\",\"type\":\"callback.requested\",\"data\":{}}";
      produce(request.requestId(), notJson);
      produce(request.requestId(), noBody);
      RecordMetadata good = produce(request.requestId(), request.record(receiver.url(request.path())));

      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);
      // the intake got past all three (same key, so one partition, in this order) and stored one delivery only
      TestKafka.awaitConsumed("callback-dispatcher", good, KAFKA_WAIT);
      assertThat(deliveries().countDocuments(Filters.eq("requestId", request.requestId()))).isOne();
      assertThat(receiver.received(request.path())).hasSize(1);
      await().atMost(KAFKA_WAIT).untilAsserted(() -> {
        List<JsonNode> letters = new ArrayList<>();
        http().get("/admin/v1/dead-letters?listener=callback-intake", Map.of("X-Operator-Token", OPERATOR_TOKEN))
            .json().path("data").forEach(letter -> {
              if (letter.path("key").asString().equals(request.requestId())) {
                letters.add(letter);
              }
            });
        assertThat(letters).extracting(l -> l.path("value").asString()).containsExactlyInAnyOrder(notJson, noBody);
        assertThat(letters).extracting(l -> l.path("exceptionMessage").asString())
            .anyMatch(m -> m.startsWith("not JSON")).contains("data.body must be a JSON object");
        assertThat(letters).extracting(l -> l.path("deadLetterTopic").asString())
            .containsOnly("payments.callbacks.v1.callback-dispatcher.dlt");
      });
    }
  }

  @Nested
  class Listeners {

    @Test
    void everyListenerHasThePlatformErrorHandler() {
      ListenerCoverage.assertEveryListenerHasThePlatformErrorHandler(context, "dev.lipa.dispatcher");
    }
  }

  @Nested
  class Retries {

    @Test
    void retriesAfterA500AndLogsBothAttempts() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.body(500, "boom"), Reply.body(200, "ok"));
      produce(request);

      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      assertThat(receiver.received(request.path())).hasSize(2)
          .allSatisfy(post -> assertThat(post.header("webhook-id")).isEqualTo(request.callbackId()));
      assertThat(delivered.getInteger("attempts")).isEqualTo(2);
      List<Document> log = attemptLog(delivered);
      assertThat(log).extracting(a -> a.getInteger("attempt")).containsExactly(1, 2);
      assertThat(log).extracting(a -> a.getInteger("statusCode")).containsExactly(500, 200);
      assertThat(log).extracting(a -> a.getString("error")).containsExactly("HTTP 500", null);
      assertThat(log).extracting(a -> a.getString("response")).containsExactly("boom", "ok");
      assertThat(log).allSatisfy(a -> assertThat(a.getLong("latencyMs")).isBetween(0L, 700L));
      // the retry waited for its scheduled time (200 ms -10% at least)
      assertThat(Duration.between(log.get(0).getDate("at").toInstant(), log.get(1).getDate("at").toInstant()))
          .isGreaterThanOrEqualTo(Duration.ofMillis(180));
    }

    @Test
    void doesNotFollowARedirect() {
      Request request = Request.fresh();
      String elsewhere = request.path() + "/elsewhere";
      receiver.script(request.path(), Reply.redirect(receiver.url(elsewhere)), Reply.status(200));
      produce(request);

      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      assertThat(receiver.received(elsewhere)).isEmpty();
      assertThat(attemptLog(delivered)).first().satisfies(attempt -> {
        assertThat(attempt.getInteger("statusCode")).isEqualTo(302);
        assertThat(attempt.getString("error")).isEqualTo("HTTP 302 (redirect not followed)");
      });
      assertThat(delivered.getInteger("attempts")).isEqualTo(2);
    }

    @Test
    void countsAnAnswerSlowerThanTheRequestTimeoutAsATimeout() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.after(Duration.ofMillis(2000), 200), Reply.status(200));
      produce(request);

      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      assertThat(attemptLog(delivered)).first().satisfies(attempt -> {
        assertThat(attempt.getString("error")).isEqualTo("timeout");
        assertThat(attempt.get("statusCode")).isNull();
        assertThat(attempt.getLong("latencyMs")).isBetween(650L, 1500L);
      });
    }

    @Test
    void countsARefusedConnectionAsAFailure() throws IOException {
      Request request = Request.fresh();
      String closedUrl;
      try (ServerSocket socket = new ServerSocket(0)) {
        closedUrl = "http://127.0.0.1:" + socket.getLocalPort() + "/callback";
      }
      produce(request.requestId(), request.record(closedUrl));

      Document dead = awaitStatus(request.callbackId(), "DEAD", KAFKA_WAIT);

      assertThat(attemptLog(dead)).hasSize(4).allSatisfy(attempt -> {
        assertThat(attempt.getString("error")).isEqualTo("connection refused");
        assertThat(attempt.get("statusCode")).isNull();
      });
    }

    @Test
    void declaresTheDeliveryDeadWhenTheScheduleIsUsedUp() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.status(503));
      produce(request);

      Document dead = awaitStatus(request.callbackId(), "DEAD", KAFKA_WAIT);

      assertThat(receiver.received(request.path())).hasSize(4);
      assertThat(dead.getInteger("attempts")).isEqualTo(4);
      assertThat(dead.getDate("deadAt")).isNotNull();
      assertThat(attemptLog(dead)).extracting(a -> a.getString("error")).containsOnly("HTTP 503");
    }

    @Test
    void declaresAnUnusableUrlDeadWithoutRetrying() {
      Request request = Request.fresh();
      produce(request.requestId(), request.record("ftp://example.com/callback"));

      Document dead = awaitStatus(request.callbackId(), "DEAD", KAFKA_WAIT);

      assertThat(attemptLog(dead)).singleElement()
          .satisfies(attempt -> assertThat(attempt.getString("error")).isEqualTo("invalid url"));
    }

    @Test
    void neverCallsThePlatformsOwnPortsEvenWhereLoopbackIsAllowed() {
      // loopback is allowed here (a merchant's test receiver), but a callback to a port of the platform would read
      // the platform's own answers into the merchant's delivery log
      for (String host : new String[] {"127.0.0.1", "localhost", "[::ffff:127.0.0.1]"}) {
        Request request = Request.fresh();
        String url = "http://" + host + ":" + platformService.port() + request.path();
        produce(request.requestId(), request.record(url));

        Document dead = awaitStatus(request.callbackId(), "DEAD", KAFKA_WAIT);

        assertThat(attemptLog(dead)).as(url).singleElement().satisfies(attempt -> assertThat(
            attempt.getString("error")).startsWith("destination refused").contains("the platform's own ports"));
        assertThat(platformService.received(request.path())).as(url).isEmpty();
      }
    }

    @Test
    void keepsOnlyTheFirstKibOfTheAnswer() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.body(200, "x".repeat(100_000)));
      produce(request);

      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      assertThat(attemptLog(delivered).getFirst().getString("response")).isEqualTo("x".repeat(1024));
    }
  }

  @Nested
  class Durability {

    /** What a dispatcher killed in the middle of an attempt leaves behind. */
    Document leasedDelivery(Request request, Instant leaseUntil) {
      Date now = new Date();
      return new Document("_id", request.callbackId())
          .append("callbackId", request.callbackId())
          .append("organisationId", request.organisationId())
          .append("requestId", request.requestId())
          .append("url", receiver.url(request.path()))
          .append("body", request.body())
          .append("kind", "stk")
          .append("status", "PENDING")
          .append("attempts", 0)
          .append("nextAttemptAt", now)
          .append("leaseUntil", Date.from(leaseUntil))
          .append("leaseToken", "killed-process")
          .append("createdAt", now)
          .append("updatedAt", now)
          .append("attemptLog", List.of());
    }

    @Test
    void deliversACallbackWhoseAttemptWasCutShortByACrash() {
      Request request = Request.fresh();
      deliveries().insertOne(leasedDelivery(request, Instant.now().minusSeconds(1)));

      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", WAIT);

      assertThat(receiver.received(request.path())).singleElement()
          .satisfies(post -> assertThat(post.body()).isEqualTo(request.body()));
      assertThat(delivered.getInteger("attempts")).isEqualTo(1);
    }

    @Test
    void leavesALeasedDeliveryAloneUntilItsLeaseExpires() throws InterruptedException {
      Request request = Request.fresh();
      deliveries().insertOne(leasedDelivery(request, Instant.now().plusMillis(1500)));

      Thread.sleep(1000);
      assertThat(receiver.received(request.path())).isEmpty();

      awaitStatus(request.callbackId(), "DELIVERED", WAIT);
      assertThat(receiver.received(request.path())).hasSize(1);
    }
  }

  /** Checks a received callback the way the README tells merchants to. */
  static boolean verifies(Received post, String secret) {
    String id = post.header("webhook-id");
    long timestamp = Long.parseLong(post.header("webhook-timestamp"));
    String expected = WebhookSignature.sign(WebhookSignature.key(secret), id, timestamp, post.body());
    return List.of(post.header("webhook-signature").split(" ")).contains(expected);
  }

  String issueSecret(String organisationId) {
    TestHttp.Response issued = http().postJson("/api/v1/callbacks/signing-secret", "", as(organisationId));
    assertThat(issued.status()).isEqualTo(201);
    assertThat(issued.headers().firstValue("Cache-Control")).contains("no-store");
    return issued.json().path("data").path("secret").stringValue();
  }

  /**
   * Pins the shape (field names and BSON types, as the store holds them) of the dispatcher's documents: deliveries
   * with their attempt log, signing secrets and disabled endpoints. Data written by one release is read by the next
   * (a delivery may wait ten hours for its next attempt): a renamed field, a changed type or a renamed collection must
   * fail here.
   */
  @Nested
  class StoredDocuments {

    private org.bson.BsonDocument raw(String collection, org.bson.conversions.Bson filter) {
      return StoredShape.stored(mongo.getDatabase("lipa-dispatcher").getCollection(collection), filter);
    }

    @Test
    void aDeliveryDeliveredOnItsSecondAttempt() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.status(500), Reply.status(200));
      produce(request);
      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      StoredShape.assertShape(raw("deliveries", Filters.eq("_id", request.callbackId())), """
          _id: string
          attemptLog: array
          attemptLog[]: document
          attemptLog[].at: date_time
          attemptLog[].attempt: int32
          attemptLog[].error: null|string
          attemptLog[].latencyMs: int64
          attemptLog[].response: null
          attemptLog[].statusCode: int32
          attemptLog[].url: string
          attempts: int32
          body: string
          callbackId: string
          createdAt: date_time
          deliveredAt: date_time
          eventId: string
          kind: string
          nextAttemptAt: date_time
          organisationId: string
          requestId: string
          roundAttempts: int32
          status: string
          traceparent: string
          updatedAt: date_time
          url: string
          """);
    }

    @Test
    void aDeadDeliveryAndTheEndpointItsAnswerDisabled() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.status(410));
      produce(request);
      awaitStatus(request.callbackId(), "DEAD", KAFKA_WAIT);

      StoredShape.assertShape(raw("deliveries", Filters.eq("_id", request.callbackId())), """
          _id: string
          attemptLog: array
          attemptLog[]: document
          attemptLog[].at: date_time
          attemptLog[].attempt: int32
          attemptLog[].error: string
          attemptLog[].latencyMs: int64
          attemptLog[].response: null
          attemptLog[].statusCode: int32
          attemptLog[].url: string
          attempts: int32
          body: string
          callbackId: string
          createdAt: date_time
          deadAt: date_time
          deadReason: string
          eventId: string
          kind: string
          nextAttemptAt: date_time
          organisationId: string
          requestId: string
          roundAttempts: int32
          status: string
          traceparent: string
          updatedAt: date_time
          url: string
          """);
      StoredShape.assertShape(raw("disabled_endpoints", Filters.eq("organisationId", request.organisationId())), """
          _id: string
          byCallbackId: string
          disabledAt: date_time
          organisationId: string
          url: string
          """);
    }

    @Test
    void aSigningSecretRotatedOnce() {
      String organisationId = UUID.randomUUID().toString();
      issueSecret(organisationId);
      StoredShape.assertShape(raw("signing_secrets", Filters.eq("_id", organisationId)), """
          _id: string
          createdAt: date_time
          current: string
          revealed: boolean
          """);

      issueSecret(organisationId);

      StoredShape.assertShape(raw("signing_secrets", Filters.eq("_id", organisationId)), """
          _id: string
          createdAt: date_time
          current: string
          previous: string
          previousExpiresAt: date_time
          revealed: boolean
          """);
    }
  }

  @Nested
  class Signatures {

    @Test
    void signsEveryCallbackWithTheOrganisationsSecret() {
      Request request = Request.fresh();
      String secret = issueSecret(request.organisationId());
      produce(request);

      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      Received post = receiver.received(request.path()).getFirst();
      assertThat(post.header("webhook-id")).isEqualTo(request.callbackId());
      assertThat(Long.parseLong(post.header("webhook-timestamp")))
          .isCloseTo(Instant.now().getEpochSecond(), org.assertj.core.data.Offset.offset(30L));
      assertThat(post.header("webhook-signature")).startsWith("v1,").doesNotContain(" ");
      assertThat(verifies(post, secret)).isTrue();
      assertThat(verifies(post, "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")).isFalse();
    }

    @Test
    void keepsTheSecretSealedUnderTheMasterKeyNeverInTheClear() {
      String organisationId = UUID.randomUUID().toString();
      String secret = issueSecret(organisationId);

      Document stored = mongo.getDatabase("lipa-dispatcher").getCollection("signing_secrets")
          .find(Filters.eq("_id", organisationId)).first();

      assertThat(stored.getString("current")).startsWith("lipa-sealed:v1:test-k1:");
      assertThat(stored.toJson()).doesNotContain(secret.substring("whsec_".length()));
    }

    @Test
    void signsARetryAfreshWithTheSameWebhookId() {
      Request request = Request.fresh();
      String secret = issueSecret(request.organisationId());
      receiver.script(request.path(), Reply.status(500), Reply.status(200));
      produce(request);

      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      assertThat(receiver.received(request.path())).hasSize(2).allSatisfy(post -> {
        assertThat(post.header("webhook-id")).isEqualTo(request.callbackId());
        assertThat(verifies(post, secret)).isTrue();
      });
    }

    @Test
    void sendsBothSignaturesDuringARotation() {
      Request request = Request.fresh();
      String old = issueSecret(request.organisationId());
      String rotated = issueSecret(request.organisationId());
      produce(request);

      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      Received post = receiver.received(request.path()).getFirst();
      assertThat(post.header("webhook-signature").split(" ")).hasSize(2);
      assertThat(verifies(post, rotated)).isTrue();
      assertThat(verifies(post, old)).isTrue();
      TestHttp.Response metadata = http().get("/api/v1/callbacks/signing-secret", as(request.organisationId()));
      assertThat(metadata.status()).isEqualTo(200);
      assertThat(metadata.json().path("data").path("rotationEndsAt").isString()).isTrue();
      assertThat(metadata.body()).doesNotContain(rotated.substring(6)).doesNotContain(old.substring(6));
    }

    @Test
    void signsEvenBeforeTheMerchantAskedForASecretAndReplacesThatSecretWithoutARotation() {
      Request request = Request.fresh();
      produce(request);
      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);
      assertThat(receiver.received(request.path()).getFirst().header("webhook-signature")).startsWith("v1,");
      TestHttp.Response lazy = http().get("/api/v1/callbacks/signing-secret", as(request.organisationId()));
      assertThat(lazy.json().path("data").path("issued").booleanValue()).isFalse();

      issueSecret(request.organisationId());

      TestHttp.Response after = http().get("/api/v1/callbacks/signing-secret", as(request.organisationId()));
      assertThat(after.json().path("data").path("issued").booleanValue()).isTrue();
      assertThat(after.json().path("data").path("rotationEndsAt").isNull()).isTrue();
    }

    @Test
    void showsNoSecretToAnOrganisationThatHasNone() {
      assertThat(http().get("/api/v1/callbacks/signing-secret", as(UUID.randomUUID().toString())).status())
          .isEqualTo(404);
    }

    @Test
    void requiresAToken() {
      assertThat(http().postJson("/api/v1/callbacks/signing-secret", "", Map.of()).status()).isEqualTo(401);
    }
  }

  @Nested
  class MerchantSignals {

    @Test
    void stopsDeliveringToAUrlThatAnswered410UntilARedelivery() {
      Request first = Request.fresh();
      receiver.script(first.path(), Reply.status(410), Reply.status(200));
      produce(first);
      Document dead = awaitStatus(first.callbackId(), "DEAD", KAFKA_WAIT);
      assertThat(dead.getString("deadReason")).isEqualTo("the endpoint answered 410 Gone");
      assertThat(attemptLog(dead)).hasSize(1);

      Request later = new Request(UUID.randomUUID().toString(), first.organisationId(),
          UUID.randomUUID().toString(), UUID.randomUUID().toString(), first.path(), first.body());
      produce(later);
      Document notSent = awaitStatus(later.callbackId(), "DEAD", KAFKA_WAIT);
      assertThat(notSent.getString("deadReason")).startsWith("not sent");
      assertThat(receiver.received(first.path())).hasSize(1);

      TestHttp.Response redelivery = http().postJson("/api/v1/callbacks/" + later.callbackId() + "/redeliver", "",
          as(first.organisationId()));
      assertThat(redelivery.status()).isEqualTo(202);
      awaitStatus(later.callbackId(), "DELIVERED", WAIT);
      assertThat(receiver.received(first.path())).hasSize(2);
    }

    @Test
    void waitsAsLongAsRetryAfterAsks() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.withHeader(503, "Retry-After", "2"), Reply.status(200));
      produce(request);

      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      List<Document> log = attemptLog(delivered);
      assertThat(log).hasSize(2);
      // the schedule alone would have retried after 200 ms
      assertThat(Duration.between(log.get(0).getDate("at").toInstant(), log.get(1).getDate("at").toInstant()))
          .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }
  }

  @Nested
  class DeliveryLog {

    @Test
    void listsTheCallbacksOfARequestWithTheirAttempts() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.body(500, "boom"), Reply.status(200));
      produce(request);
      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      TestHttp.Response response = http().get("/api/v1/callbacks?requestId=" + request.requestId(),
          as(request.organisationId()));

      assertThat(response.status()).isEqualTo(200);
      var callbacks = response.json().path("data");
      assertThat(callbacks.size()).isEqualTo(1);
      var callback = callbacks.get(0);
      assertThat(callback.path("callbackId").stringValue()).isEqualTo(request.callbackId());
      assertThat(callback.path("status").stringValue()).isEqualTo("DELIVERED");
      var attempts = callback.path("attemptLog");
      assertThat(attempts.size()).isEqualTo(2);
      assertThat(attempts.get(0).path("statusCode").intValue()).isEqualTo(500);
      assertThat(attempts.get(0).path("error").stringValue()).isEqualTo("HTTP 500");
      assertThat(attempts.get(0).path("latencyMs").isNumber()).isTrue();
      assertThat(attempts.get(0).path("at").isString()).isTrue();
      assertThat(attempts.get(1).path("statusCode").intValue()).isEqualTo(200);
    }

    @Test
    void showsNothingOfAnotherOrganisation() {
      Request request = Request.fresh();
      produce(request);
      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);
      String stranger = UUID.randomUUID().toString();

      assertThat(http().get("/api/v1/callbacks?requestId=" + request.requestId(), as(stranger)).json()
          .path("data").size()).isZero();
      assertThat(http().postJson("/api/v1/callbacks/" + request.callbackId() + "/redeliver", "", as(stranger))
          .status()).isEqualTo(404);
      assertThat(receiver.received(request.path())).hasSize(1);
    }

    @Test
    void redeliversADeliveredCallbackWithTheSameWebhookId() {
      Request request = Request.fresh();
      produce(request);
      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);

      TestHttp.Response response = http().postJson("/api/v1/callbacks/" + request.callbackId() + "/redeliver", "",
          as(request.organisationId()));

      assertThat(response.status()).isEqualTo(202);
      assertThat(response.json().path("data").path("status").stringValue()).isEqualTo("PENDING");
      await().atMost(WAIT).until(() -> receiver.received(request.path()).size() == 2);
      assertThat(receiver.received(request.path()))
          .allSatisfy(post -> assertThat(post.header("webhook-id")).isEqualTo(request.callbackId()));
      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", WAIT);
      assertThat(delivered.getInteger("attempts")).isEqualTo(2);
    }

    @Test
    void requiresTheRequestId() {
      assertThat(http().get("/api/v1/callbacks", as(UUID.randomUUID().toString())).status()).isEqualTo(400);
    }
  }

  @Nested
  class DeadLetters {

    Map<String, String> operator() {
      return Map.of("X-Operator-Token", OPERATOR_TOKEN);
    }

    @Test
    void showsADeadCallbackToOperatorsAndReplaysIt() {
      Request request = Request.fresh();
      receiver.script(request.path(), Reply.status(500), Reply.status(500), Reply.status(500), Reply.status(500),
          Reply.status(200));
      produce(request);
      awaitStatus(request.callbackId(), "DEAD", KAFKA_WAIT);

      TestHttp.Response dead = http().get("/admin/v1/callbacks/dead?organisationId=" + request.organisationId(),
          operator());
      assertThat(dead.status()).isEqualTo(200);
      assertThat(dead.json().path("data").get(0).path("callbackId").stringValue()).isEqualTo(request.callbackId());
      assertThat(dead.json().path("data").get(0).path("deadReason").stringValue())
          .isEqualTo("retry schedule exhausted");

      TestHttp.Response replay = http().postJson("/admin/v1/callbacks/" + request.callbackId() + "/replay", "",
          operator());
      assertThat(replay.status()).isEqualTo(202);
      Document delivered = awaitStatus(request.callbackId(), "DELIVERED", WAIT);
      assertThat(delivered.getInteger("attempts")).isEqualTo(5);
      assertThat(http().postJson("/admin/v1/callbacks/" + request.callbackId() + "/replay", "", operator())
          .status()).as("only dead letters are replayed").isEqualTo(409);
    }

    @Test
    void refusesCallersWithoutTheOperatorToken() {
      assertThat(http().get("/admin/v1/callbacks/dead", Map.of()).status()).isEqualTo(401);
      assertThat(http().get("/admin/v1/callbacks/dead", Map.of("X-Operator-Token", "wrong")).status())
          .isEqualTo(401);
      assertThat(http().get("/admin/v1/callbacks/dead", as(UUID.randomUUID().toString())).status()).isEqualTo(401);
      assertThat(http().postJson("/admin/v1/callbacks/" + UUID.randomUUID() + "/replay", "", operator()).status())
          .isEqualTo(404);
    }
  }

  @Nested
  class Isolation {

    @Test
    void deliversToAFastEndpointAtFullSpeedWhileAnotherHangs() {
      try (TestReceiver slow = TestReceiver.start()) {
        slow.script("/hang", Reply.after(Duration.ofSeconds(30), 200));
        String slowOrg = UUID.randomUUID().toString();
        for (int i = 0; i < 60; i++) {
          Request hanging = Request.fresh();
          produce(hanging.requestId(), new Request(hanging.eventId(), slowOrg, hanging.requestId(),
              hanging.callbackId(), "/hang", hanging.body()).record(slow.url("/hang")));
        }
        await().atMost(KAFKA_WAIT).until(() -> slow.received("/hang").size() >= 4);

        // one after the other, as a merchant's payments come in: the fast endpoint itself is never the bottleneck
        List<Request> fast = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
          Request request = Request.fresh();
          fast.add(request);
          produce(request);
        }
        await().atMost(KAFKA_WAIT).pollInterval(Duration.ofMillis(20)).until(() -> fast.stream()
            .allMatch(r -> "DELIVERED".equals(java.util.Optional.ofNullable(delivery(r.callbackId()))
                .map(d -> d.getString("status")).orElse(null))));

        // from the moment the dispatcher stored each fast callback to its first (and only) attempt: never queued
        // behind the hanging host (with the per-host breaker off, the fast ones waited 2.2-2.8 s; the bound
        // leaves room for a busy 2-core CI machine, where an unqueued attempt has been seen to start 0.5 s late)
        assertThat(fast).allSatisfy(r -> {
          Document delivered = delivery(r.callbackId());
          Duration lag = Duration.between(delivered.getDate("createdAt").toInstant(),
              attemptLog(delivered).getFirst().getDate("at").toInstant());
          assertThat(lag).isLessThan(Duration.ofMillis(1500));
          assertThat(delivered.getInteger("attempts")).isEqualTo(1);
        });
        assertThat(deliveries().countDocuments(Filters.and(Filters.eq("organisationId", slowOrg),
            Filters.eq("status", "DELIVERED")))).as("the hanging endpoint is stuck").isZero();
      }
    }
  }

  /** The dispatcher called directly, behind the gateway's back: no spelling of a protected path reaches a handler. */
  @Nested
  class PathRules {

    @Test
    void refusesEveryOtherSpellingOfEveryProtectedPath() {
      Map<String, String> merchant = as(UUID.randomUUID().toString());
      PathRuleChecks.assertEverySpellingRefused("127.0.0.1", port, List.of(
          new Protected("GET", "/api/v1/callbacks/signing-secret", merchant),
          new Protected("POST", "/api/v1/callbacks/signing-secret", merchant),
          new Protected("GET", "/admin/v1/callbacks/dead", Map.of("X-Operator-Token", OPERATOR_TOKEN)),
          new Protected("POST", "/internal/v1/anything", Map.of())));
    }
  }
}
