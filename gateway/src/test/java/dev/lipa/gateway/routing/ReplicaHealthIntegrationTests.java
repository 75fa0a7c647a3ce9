package dev.lipa.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.gateway.support.BalancedGateway;
import dev.lipa.gateway.support.Replica;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The gateway follows its replicas' readiness: one out of service gets no request until it is ready again; when no
 * replica answers ready, requests go to every replica (one that is gone refuses the connection and the next serves)
 * rather than none.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ReplicaHealthIntegrationTests {

  static final Replica ONE = new Replica("payouts-1");
  static final Replica TWO = new Replica("payouts-2");
  static final String PAYOUTS = "/api/sandbox/v1/send-money/single";

  @LocalServerPort
  int port;

  @DynamicPropertySource
  static void replicas(DynamicPropertyRegistry registry) {
    BalancedGateway.register(registry, ONE, TWO, "200ms");
  }

  TestHttp http() {
    return new TestHttp("http://localhost:" + port);
  }

  @Test
  void aReplicaOutOfServiceGetsNoRequestsUntilItIsReadyAgain() {
    TWO.ready(false);
    try {
      // once the next check has seen it, ten requests in a row all go to the ready replica
      await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
        int before = TWO.requests();
        for (int i = 0; i < 10; i++) {
          assertThat(http().postJson(PAYOUTS, BalancedGateway.body(), BalancedGateway.authorized()).body())
              .contains("payouts-1");
        }
        assertThat(TWO.requests()).isEqualTo(before);
      });
    } finally {
      TWO.ready(true);
    }
    await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
      int before = TWO.requests();
      for (int i = 0; i < 4; i++) {
        assertThat(http().postJson(PAYOUTS, BalancedGateway.body(), BalancedGateway.authorized()).status())
            .isEqualTo(200);
      }
      assertThat(TWO.requests()).as("back in the rotation").isGreaterThan(before);
    });
  }

  @Test
  void whenNoReplicaAnswersReadyEveryReplicaStillGetsRequestsInsteadOfA503() {
    ONE.ready(false);
    TWO.ready(false);
    try {
      // for ten health-check intervals and more, every request is answered, by both replicas in turn
      int oneBefore = ONE.requests();
      int twoBefore = TWO.requests();
      await().pollDelay(Duration.ZERO).during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(
              http().postJson(PAYOUTS, BalancedGateway.body(), BalancedGateway.authorized()).status())
              .isEqualTo(200));
      assertThat(ONE.requests()).isGreaterThan(oneBefore);
      assertThat(TWO.requests()).isGreaterThan(twoBefore);
    } finally {
      ONE.ready(true);
      TWO.ready(true);
    }
  }

  @Test
  void aReplicaThatIsGoneWhileTheOtherAnswersNotReadyLeavesTheOtherServingEveryRequest() {
    // a rolling restart on a loaded machine: one replica stopped, the other's check too slow or still saying DOWN
    ONE.stop();
    TWO.ready(false);
    try {
      await().pollDelay(Duration.ZERO).during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(
              http().postJson(PAYOUTS, BalancedGateway.body(), BalancedGateway.authorized()).body())
              .contains("payouts-2"));
    } finally {
      ONE.start();
      TWO.ready(true);
    }
  }
}
