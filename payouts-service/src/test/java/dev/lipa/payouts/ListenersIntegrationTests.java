package dev.lipa.payouts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.ListenerCoverage;
import dev.lipa.common.testsupport.TestKafka;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/** Every Kafka listener of payouts-service runs with the platform's error handling. */
class ListenersIntegrationTests extends PayoutsIntegrationTest {

  @Autowired
  ApplicationContext context;

  @Test
  void everyListenerHasThePlatformErrorHandler() {
    ListenerCoverage.assertEveryListenerHasThePlatformErrorHandler(context, "dev.lipa.payouts");
  }

  @Test
  void theSandboxRailDeadLettersAnAcceptedPayoutItCannotRead() {
    String requestId = "not-a-uuid-" + UUID.randomUUID();
    String value = """
        {"eventId":"%s","type":"sendmoney.accepted","version":1,"organisationId":"%s",
         "data":{"requestId":"%s","kind":"sendmoney","amount":10,"currency":"KSH"}}"""
        .formatted(UUID.randomUUID(), newOrganisation(), requestId);
    TestKafka.publish(Topics.PAYOUTS, requestId, value);

    Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
        http().get("/admin/v1/dead-letters?listener=payouts-sandbox-rail", OPERATOR).json().path("data"))
        .anySatisfy(letter -> {
          assertThat(letter.path("value").asString()).isEqualTo(value);
          assertThat(letter.path("exceptionMessage").asString()).startsWith("not a valid accepted payout");
        }));
  }

  @Test
  void theOperatorApiOfDeadLettersNeedsTheOperatorToken() {
    assertThat(http().get("/admin/v1/dead-letters", Map.of()).status()).isEqualTo(401);
    assertThat(http().get("/admin/v1/dead-letters", OPERATOR).status()).isEqualTo(200);
  }
}
