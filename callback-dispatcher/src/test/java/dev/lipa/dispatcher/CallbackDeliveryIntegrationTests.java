package dev.lipa.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.SharedInfraInitializer;
import dev.lipa.dispatcher.TestReceiver.Received;
import dev.lipa.dispatcher.TestReceiver.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.context.ContextConfiguration;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.dispatcher.retry-delays=200ms,200ms,200ms",
    "lipa.dispatcher.request-timeout=700ms",
    "lipa.dispatcher.connect-timeout=500ms",
    "lipa.dispatcher.poll-interval=50ms",
    "lipa.dispatcher.lease-duration=3s"})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
class CallbackDeliveryIntegrationTests {

  private static final Duration KAFKA_WAIT = Duration.ofSeconds(20);
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final TestReceiver receiver = TestReceiver.start();

  @Autowired
  KafkaTemplate<String, String> kafka;
  @Autowired
  MongoClient mongo;

  @AfterAll
  static void stopReceiver() {
    receiver.close();
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

  void produce(String key, String value) {
    try {
      kafka.send(Topics.CALLBACKS, key, value).get();
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
    void skipsAMalformedRecordAndKeepsConsuming() {
      Request request = Request.fresh();
      produce(request.requestId(), "{not json");
      produce(request.requestId(), "{\"eventId\":\"x\",\"type\":\"callback.requested\",\"data\":{}}");
      produce(request);

      awaitStatus(request.callbackId(), "DELIVERED", KAFKA_WAIT);
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
}
