package dev.lipa.payouts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.ListenerCoverage;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/** Every Kafka listener of payouts-service runs with the platform's error handling. */
class ListenersIntegrationTests extends PayoutsIntegrationTest {

  @Autowired
  ApplicationContext context;

  @Autowired
  KafkaListenerEndpointRegistry listeners;

  @Test
  void everyListenerHasThePlatformErrorHandler() {
    ListenerCoverage.assertEveryListenerHasThePlatformErrorHandler(context, "dev.lipa.payouts");
  }

  @Test
  void noListenerReadsTheServicesOwnPayoutsTopic() {
    // the sandbox rail is fed in process from the outbox's acknowledgements (SandboxPayoutFeed); in sandbox the only
    // listener of the payouts topic would be the Daraja rail's, which runs in live only
    assertThat(listeners.getListenerContainers()).filteredOn(MessageListenerContainer::isRunning)
        .allSatisfy(container -> assertThat(container.getContainerProperties().getTopics())
            .doesNotContain(Topics.PAYOUTS));
    assertThat(listeners.getListenerContainerIds()).doesNotContain("payouts-sandbox-rail");
  }

  @Test
  void theOperatorApiOfDeadLettersNeedsTheOperatorToken() {
    assertThat(http().get("/admin/v1/dead-letters", Map.of()).status()).isEqualTo(401);
    assertThat(http().get("/admin/v1/dead-letters", OPERATOR).status()).isEqualTo(200);
  }
}
