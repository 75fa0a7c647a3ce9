package dev.lipa.collections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.ListenerCoverage;
import dev.lipa.common.testsupport.TestKafka;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/** Every Kafka listener of collections-service runs with the platform's error handling. */
class ListenersIntegrationTests extends CollectionsIntegrationTest {

  @Autowired
  ApplicationContext context;

  @Test
  void everyListenerHasThePlatformErrorHandler() {
    ListenerCoverage.assertEveryListenerHasThePlatformErrorHandler(context, "dev.lipa.collections");
  }

  @Test
  void theSandboxRailDeadLettersAnAcceptedPushItCannotRead() {
    String requestId = "not-a-uuid-" + UUID.randomUUID();
    String value = """
        {"eventId":"%s","type":"stk.accepted","version":1,"organisationId":"%s",
         "data":{"requestId":"%s","phoneNumber":"254708374149","amount":10,"currency":"KSH"}}"""
        .formatted(UUID.randomUUID(), newOrganisation(), requestId);
    TestKafka.publish(Topics.COLLECTIONS, requestId, value);

    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
        http().get("/admin/v1/dead-letters?listener=collections-sandbox-rail", OPERATOR).json().path("data"))
        .anySatisfy(letter -> {
          assertThat(letter.path("value").asString()).isEqualTo(value);
          assertThat(letter.path("deadLetterTopic").asString())
              .isEqualTo("payments.collections.v1.collections-sandbox-rail.dlt");
          assertThat(letter.path("exceptionMessage").asString()).startsWith("not a valid accepted STK push");
        }));
  }

  @Test
  void theOperatorApiOfDeadLettersNeedsTheOperatorToken() {
    assertThat(http().get("/admin/v1/dead-letters", Map.of()).status()).isEqualTo(401);
    assertThat(http().get("/admin/v1/dead-letters", OPERATOR).status()).isEqualTo(200);
  }
}
