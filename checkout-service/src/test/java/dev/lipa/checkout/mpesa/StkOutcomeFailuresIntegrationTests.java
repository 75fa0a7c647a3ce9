package dev.lipa.checkout.mpesa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lipa.checkout.CheckoutIntegrationTest;
import dev.lipa.checkout.CollectionsStub;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.ListenerCoverage;
import dev.lipa.common.testsupport.StoreProxy;
import dev.lipa.common.testsupport.TestKafka;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

/** checkout's STK outcome listener when the store fails under it and when an outcome cannot be read. */
class StkOutcomeFailuresIntegrationTests extends CheckoutIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Autowired
  MeterRegistry meters;
  @Autowired
  ApplicationContext context;

  record Attempt(String org, String sessionId, CollectionsStub.Call call) {
  }

  @AfterEach
  void restoreTheStore() {
    StoreProxy.shared().restore();
  }

  private Attempt mpesaAttempt() {
    String org = newOrganisation();
    JsonNode session = create(org, cardAndMpesa());
    String sessionId = session.path("id").asString();
    JsonNode started = page(session.path("checkoutRef").asString(), "/mpesa", "{\"phoneNumber\":\"0712 345 678\"}")
        .json();
    assertThat(started.path("status").asString()).isEqualTo("REQUIRES_CUSTOMER_ACTION");
    return new Attempt(org, sessionId, CollectionsStub.shared().callFor(sessionId));
  }

  private String status(Attempt attempt) {
    return http().get(SESSIONS + "/" + attempt.sessionId(), as(attempt.org())).json().path("status").asString();
  }

  private double retries() {
    Counter counter = meters.find("lipa.kafka.listener.retries").tag("listener", StkOutcomeListener.GROUP).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void losesNoStkOutcomeWhileTheStoreIsDownAndResumesByItself() {
    List<Attempt> attempts = new ArrayList<>(List.of(mpesaAttempt(), mpesaAttempt(), mpesaAttempt()));
    Attempt afterwards = mpesaAttempt();
    double before = retries();

    StoreProxy.shared().cut();
    publishStkOutcome(attempts.get(0).org(), attempts.get(0).call(), true);
    publishStkOutcome(attempts.get(1).org(), attempts.get(1).call(), true);
    publishStkOutcome(attempts.get(2).org(), attempts.get(2).call(), false);
    await().atMost(PATIENCE).until(() -> retries() >= before + 2);
    StoreProxy.shared().restore();

    await().atMost(PATIENCE).untilAsserted(() -> assertThat(attempts.stream().map(this::status).toList())
        .containsExactly("SUCCEEDED", "SUCCEEDED", "PENDING"));
    // the consumer resumed by itself: an outcome after the outage is applied too
    publishStkOutcome(afterwards.org(), afterwards.call(), true);
    await().atMost(PATIENCE).until(() -> status(afterwards).equals("SUCCEEDED"));
  }

  @Test
  void deadLettersAnOutcomeOfACheckoutPushWithoutItsOrganisation() {
    String referenceId = "chk_" + UUID.randomUUID() + "_1";
    String value = """
        {"eventId":"%s","type":"stk.succeeded","version":1,
         "data":{"requestId":"%s","referenceId":"%s","amount":1500,"currency":"KSH","status":"SUCCESS"}}"""
        .formatted(UUID.randomUUID(), UUID.randomUUID(), referenceId);
    TestKafka.publish(Topics.COLLECTIONS, referenceId, value);

    await().atMost(PATIENCE).untilAsserted(() -> assertThat(
        http().get("/admin/v1/dead-letters?listener=" + StkOutcomeListener.GROUP, OPERATOR).json().path("data"))
        .anySatisfy(letter -> {
          assertThat(letter.path("value").asString()).isEqualTo(value);
          assertThat(letter.path("exceptionMessage").asString()).endsWith("has no organisationId");
        }));
  }

  @Test
  void deadLettersAnOutcomeOfACheckoutPushWhoseRequestIdIsNoUuid() {
    String referenceId = "chk_" + UUID.randomUUID() + "_1";
    String value = """
        {"eventId":"%s","type":"stk.succeeded","version":1,"organisationId":"%s",
         "data":{"requestId":"not-a-uuid","referenceId":"%s","amount":1500,"currency":"KSH","status":"SUCCESS"}}"""
        .formatted(UUID.randomUUID(), newOrganisation(), referenceId);
    TestKafka.publish(Topics.COLLECTIONS, referenceId, value);

    await().atMost(PATIENCE).untilAsserted(() -> assertThat(
        http().get("/admin/v1/dead-letters?listener=" + StkOutcomeListener.GROUP, OPERATOR).json().path("data"))
        .anySatisfy(letter -> {
          assertThat(letter.path("value").asString()).isEqualTo(value);
          assertThat(letter.path("exceptionMessage").asString()).endsWith("has a requestId that is no UUID");
        }));
  }

  @Test
  void everyListenerHasThePlatformErrorHandler() {
    ListenerCoverage.assertEveryListenerHasThePlatformErrorHandler(context, "dev.lipa.checkout");
  }
}
