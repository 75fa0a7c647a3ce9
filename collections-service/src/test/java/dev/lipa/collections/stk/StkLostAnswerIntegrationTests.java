package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.Filters;
import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.LostAnswerProxy;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TopicRecorder;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An STK push whose insert reached the store and was applied, but whose answer was lost (the connection dropped by
 * {@link LostAnswerProxy} before the store's answer came back): the service cannot tell, answers 503, and the
 * merchant's retry of the same request is answered with the push that was stored. One push, one requestId, one
 * outcome, never a second {@code stk.accepted}. The
 * embedded store is a standalone server, so the driver's own retryable writes do not apply here: the caller's retry
 * is what is proven.
 */
class StkLostAnswerIntegrationTests extends CollectionsIntegrationTest {

  private final LostAnswerProxy proxy = LostAnswerProxy.shared();

  @BeforeAll
  static void recordTopics() {
    TopicRecorder.start();
  }

  @AfterEach
  void disarm() {
    proxy.disarm();
  }

  private static String withReference(String reference) {
    return body("0712345678").replace("{", "{\"referenceId\":\"" + reference + "\",");
  }

  private static List<ConsumerRecord<String, String>> events(String requestId, String type) {
    return TopicRecorder.records(Topics.COLLECTIONS, requestId).stream()
        .filter(r -> r.value().contains("\"type\":\"" + type + "\"")).toList();
  }

  @Test
  void aPushWhoseAnswerWasLostIsAcceptedOnceWhenTheMerchantRetries() {
    String org = newOrganisation();
    String body = withReference("lost-" + UUID.randomUUID());
    int lostBefore = proxy.lostAnswers();
    proxy.loseTheAnswerTo(LostAnswerProxy.command("insert", StkPushStore.COLLECTION));

    TestHttp.Response lost = http().postJson(NEW, body, as(org));

    assertThat(proxy.lostAnswers()).isEqualTo(lostBefore + 1);
    assertThat(lost.status()).as(lost.body()).isEqualTo(503);
    List<Document> stored = database.getCollection(StkPushStore.COLLECTION)
        .find(Filters.eq("organisationId", org)).into(new java.util.ArrayList<>());
    assertThat(stored).as("the insert was applied although its answer was lost").hasSize(1);
    String requestId = stored.getFirst().getString("_id");

    TestHttp.Response retried = await().atMost(Duration.ofSeconds(20)).until(
        () -> http().postJson(NEW, body, as(org)), response -> response.status() != 503);

    assertThat(retried.status()).as(retried.body()).isEqualTo(201);
    assertThat(retried.json().get("data").get("requestId").stringValue()).isEqualTo(requestId);
    assertThat(database.getCollection(StkPushStore.COLLECTION).countDocuments(Filters.eq("organisationId", org)))
        .isEqualTo(1);
    // the push flows once: one outcome, and never a second acceptance
    await().atMost(Duration.ofSeconds(60)).until(() -> !events(requestId, StkOutboxEvents.SUCCEEDED).isEmpty());
    await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> true);
    assertThat(events(requestId, StkOutboxEvents.SUCCEEDED)).hasSize(1);
    assertThat(events(requestId, StkOutboxEvents.ACCEPTED)).hasSizeLessThanOrEqualTo(1);
  }
}
