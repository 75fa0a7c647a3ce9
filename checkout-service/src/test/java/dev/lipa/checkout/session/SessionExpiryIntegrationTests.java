package dev.lipa.checkout.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.lipa.checkout.CheckoutIntegrationTest;
import dev.lipa.checkout.CheckoutProperties;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.TopicRecorder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

/**
 * The expiry job on three replicas at once (the service's own {@link SessionExpiryJob} and two more
 * {@link CheckoutSessions} expiring from other threads, as other processes would) against one store and broker: each
 * session past its lifetime is expired once, with one {@code checkout.expired} event and one callback request. The job
 * runs on every replica without a lease (kind b in docs/operations.md): each expiry is a compare-and-set.
 */
class SessionExpiryIntegrationTests extends CheckoutIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int SESSIONS = 20;

  @Autowired
  private CheckoutSessionStore store;
  @Autowired
  private CheckoutProperties properties;

  @Test
  void sessionsPastTheirLifetimeAreExpiredOnceByReplicasExpiringAtOnce() throws Exception {
    String org = newOrganisation();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < SESSIONS; i++) {
      ids.add(create(org, cardAndMpesa()).path("id").asString());
    }
    CheckoutSessions replicaA = new CheckoutSessions(store, properties, Clock.systemUTC());
    CheckoutSessions replicaB = new CheckoutSessions(store, properties, Clock.systemUTC());

    // every session's lifetime runs out at once, and two more replicas race the service's own job to expire them
    CountDownLatch start = new CountDownLatch(1);
    try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
      Future<Integer> a = pool.submit(() -> {
        start.await();
        return replicaA.expireDue(500);
      });
      Future<Integer> b = pool.submit(() -> {
        start.await();
        return replicaB.expireDue(500);
      });
      database.getCollection(CheckoutSessionStore.COLLECTION).updateMany(Filters.in("_id", ids),
          Updates.set("expiresAt", Date.from(Instant.now().minusSeconds(1))));
      start.countDown();
      assertThat(a.get() + b.get()).isBetween(0, SESSIONS);
    }

    await().atMost(Duration.ofSeconds(15)).until(() -> database.getCollection(CheckoutSessionStore.COLLECTION)
        .countDocuments(Filters.and(Filters.in("_id", ids), Filters.eq("status", "EXPIRED"))) == SESSIONS);
    // every expiry's events, and a quiet spell in which a second expiry's would arrive
    await().atMost(Duration.ofSeconds(15)).until(() -> ids.stream().allMatch(id -> types(id).size() == 2));
    await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> true);
    for (String id : ids) {
      assertThat(types(id)).as("events of %s", id).containsExactly("checkout.created", "checkout.expired");
      assertThat(TopicRecorder.records(Topics.CALLBACKS, id)).as("callback requests of %s", id).hasSize(1);
    }
  }

  private static List<String> types(String sessionId) {
    return TopicRecorder.records(Topics.CHECKOUT, sessionId).stream()
        .map(r -> JSON.readTree(r.value()).path("type").asString()).toList();
  }
}
