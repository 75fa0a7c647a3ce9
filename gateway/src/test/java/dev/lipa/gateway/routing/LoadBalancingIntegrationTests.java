package dev.lipa.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.gateway.support.BalancedGateway;
import dev.lipa.gateway.support.Replica;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The gateway in front of two real replicas of payouts-service (lb://payouts-service), health checked once at start
 * (the interval is an hour), so that a replica stopped or dropping requests stays in the list: what is tested here
 * is what the gateway does with a request that meets it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LoadBalancingIntegrationTests {

  static final Replica FIRST = new Replica("payouts-1");
  static final Replica SECOND = new Replica("payouts-2");
  static final String PAYOUTS = "/api/sandbox/v1/send-money/single";

  @LocalServerPort
  int port;

  @DynamicPropertySource
  static void replicas(DynamicPropertyRegistry registry) {
    BalancedGateway.register(registry, FIRST, SECOND, "1h");
  }

  TestHttp http() {
    return new TestHttp("http://localhost:" + port);
  }

  /**
   * The load balancer checks its replicas on its first request, then (here) not for an hour: both must have been
   * seen ready before a test stops one, or the stopped one would simply never be chosen.
   */
  @BeforeEach
  void bothReplicasInTheRotation() {
    await().atMost(Duration.ofSeconds(20)).until(() -> {
      http().postJson(PAYOUTS, BalancedGateway.body(), BalancedGateway.authorized());
      return FIRST.requests() > 0 && SECOND.requests() > 0;
    });
  }

  @AfterEach
  void bothReplicasServeAgain() {
    SECOND.dropRequests(false);
  }

  @Test
  void spreadsRequestsOverBothReplicas() {
    int before1 = FIRST.requests();
    int before2 = SECOND.requests();

    for (int i = 0; i < 10; i++) {
      assertThat(http().postJson(PAYOUTS, BalancedGateway.body(), BalancedGateway.authorized()).status())
          .isEqualTo(200);
    }

    // round robin: five each
    assertThat(FIRST.requests() - before1).isEqualTo(5);
    assertThat(SECOND.requests() - before2).isEqualTo(5);
  }

  @Test
  void aPostWhoseConnectionIsRefusedGoesToTheOtherReplicaOnce() {
    SECOND.stop();
    try {
      List<String> sent = new ArrayList<>();
      int before = FIRST.requests();
      for (int i = 0; i < 10; i++) {
        String body = BalancedGateway.body();
        sent.add(body);
        TestHttp.Response response = http().postJson(PAYOUTS, body, BalancedGateway.authorized());
        // half of them were balanced onto the stopped replica first: without the retry, five 503s
        assertThat(response.status()).as("request %d", i).isEqualTo(200);
        assertThat(response.body()).contains("payouts-1");
      }
      assertThat(FIRST.bodies().subList(before, FIRST.requests())).containsExactlyElementsOf(sent);
    } finally {
      SECOND.start();
    }
  }

  @Test
  void aPostThatReachedAReplicaIsNeverSentToAnother() {
    SECOND.dropRequests(true);
    int before1 = FIRST.requests();
    int before2 = SECOND.requests();
    Set<String> sent = new HashSet<>();
    int failed = 0;

    for (int i = 0; i < 10; i++) {
      String body = BalancedGateway.body();
      sent.add(body);
      if (http().postJson(PAYOUTS, body, BalancedGateway.authorized()).status() != 200) {
        failed++;
      }
    }

    List<String> reachedFirst = FIRST.bodies().subList(before1, FIRST.requests());
    List<String> reachedSecond = SECOND.bodies().subList(before2, SECOND.requests());
    assertThat(reachedSecond).as("requests the dropping replica read").hasSize(5);
    assertThat(failed).as("the client is told those failed").isEqualTo(5);
    assertThat(reachedFirst).as("none of them executed a second time").doesNotContainAnyElementsOf(reachedSecond);
    assertThat(reachedFirst.size() + reachedSecond.size()).isEqualTo(sent.size());
  }
}
