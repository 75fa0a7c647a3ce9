package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.collections.CollectionsIntegrationTest;
import dev.lipa.collections.CollectionsProperties;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.collections.stk.rail.StkRail;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.lease.Leases;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.Outboxes;
import dev.lipa.common.rail.OverdueSettings;
import dev.lipa.common.testsupport.MutableClock;
import dev.lipa.common.testsupport.TopicRecorder;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.bson.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Two replicas of the overdue STK sweep (two {@link OverdueStkPushes}, as two processes would run them) against one
 * store and broker: the rail is asked about an overdue push by one replica only, a replica stalled past its lease asks
 * nothing more, and an overdue push is answered once.
 */
class OverdueStkPushesIntegrationTests extends CollectionsIntegrationTest {

  private static final OverdueSettings SETTINGS = new OverdueSettings(Duration.ofSeconds(60), Duration.ofSeconds(10),
      100);
  private static final Duration LEASE = SETTINGS.sweepInterval().multipliedBy(OverdueStkPushes.LEASE_INTERVALS);
  private static final CollectionsProperties.Reconciliation RECONCILIATION = new CollectionsProperties.Reconciliation(3,
      Duration.ofSeconds(10), Duration.ofSeconds(30));

  @Autowired
  private MongoClient client;
  @Autowired
  private Outboxes outboxes;
  @Autowired
  private StkOutboxEvents outboxEvents;

  private final MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
  /** Every question the replicas asked the rail, by requestId, in order. */
  private final List<String> asked = new CopyOnWriteArrayList<>();
  private MongoDatabase own;
  private Leases leases;

  @BeforeAll
  static void recordTopics() {
    TopicRecorder.start();
  }

  @BeforeEach
  void ownDatabase() {
    // a database of its own: the service's own sweep (and other tests' pushes) stay out of these counts
    own = client.getDatabase("overdue-" + UUID.randomUUID());
    new StkPushStore(own, outboxes, outboxEvents); // the push collection's indexes, as the service makes them
    leases = new Leases(own.getCollection(Leases.COLLECTION), clock);
  }

  @Test
  void twoReplicasAskTheRailAboutEachOverduePushOnce() {
    List<String> overdue = leaveOverduePushes(5);
    OverdueStkPushes replicaA = replica(this::record);
    OverdueStkPushes replicaB = replica(this::record);

    int byA = replicaA.sweep();
    int byB = replicaB.sweep();

    assertThat(byA + byB).isEqualTo(5);
    assertThat(asked).containsExactlyInAnyOrderElementsOf(overdue);
  }

  @Test
  void theJobMovesToTheOtherReplicaWhenItsHolderStopsRenewing() {
    leaveOverduePushes(2);
    OverdueStkPushes replicaA = replica(this::record);
    OverdueStkPushes replicaB = replica(this::record);
    assertThat(replicaA.sweep()).isEqualTo(2);

    // A died: nothing renews its lease; B keeps sweeping and gets the job once the lease has run out
    clock.advance(LEASE.minusSeconds(1));
    assertThat(replicaB.sweep()).isZero();
    clock.advance(Duration.ofSeconds(1));
    assertThat(replicaB.sweep()).isEqualTo(2);
  }

  @Test
  void aReplicaStalledPastItsLeaseAsksNothingMoreOnceAnotherTookOver() {
    List<String> overdue = leaveOverduePushes(5);
    List<String> askedByA = new ArrayList<>();
    OverdueStkPushes[] replicaB = new OverdueStkPushes[1];
    OverdueStkPushes replicaA = replica(prompt -> {
      askedByA.add(prompt.requestId().toString());
      record(prompt);
      if (askedByA.size() == 1) {
        // A stalls right after its first question (a GC pause, SIGSTOP) past its lease; B takes the job over
        clock.advance(LEASE.plusSeconds(1));
        assertThat(replicaB[0].sweep()).isEqualTo(5);
      }
    });
    replicaB[0] = replica(this::record);

    assertThat(replicaA.sweep()).as("A's run ended when its fencing check failed").isZero();

    assertThat(askedByA).hasSize(1);
    // one question of A before it stalled, then B's five: A asked nothing after waking up
    assertThat(asked).hasSize(6).containsAll(overdue);
  }

  @Test
  void anOverduePushIsAnsweredOnceWhileTwoReplicasSweep(@Autowired ObjectProvider<StkRail> rail,
      @Autowired CollectionsProperties properties, @Autowired Leases serviceLeases) {
    // a second replica beside the service's own sweep, on the service's store, rail and lease
    try (OverdueStkPushes second = new OverdueStkPushes(new OverdueQuestions(database, properties), rail, properties,
        Clock.systemUTC(), serviceLeases)) {
      Instant longAgo = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MILLIS);
      StkPush push = overduePush("254700001037", longAgo);
      database.getCollection(StkPushStore.COLLECTION).insertOne(StkPushStore.toDocument(push));
      String requestId = push.requestId().toString();

      Document stored = await().atMost(Duration.ofSeconds(30)).until(
          () -> database.getCollection(StkPushStore.COLLECTION).find(Filters.eq("_id", requestId)).first(),
          d -> d != null && "FAILED".equals(d.getString("status")) && !d.containsKey(Outbox.EVENTS));

      assertThat(stored.getInteger("resultCode")).isEqualTo(1037);
      assertThat(TopicRecorder.once(Topics.COLLECTIONS, requestId, "stk.failed")).hasSize(1);
      assertThat(TopicRecorder.once(Topics.CALLBACKS, requestId, "callback.requested")).hasSize(1);
    }
  }

  @Test
  void asksAboutAnUnansweredPushAFewTimesFurtherApartThenLeavesItToOperators() {
    String requestId = leaveOverduePushes(1).getFirst();
    OverdueStkPushes sweep = replica(this::record);
    OverdueQuestions questions = new OverdueQuestions(own, RECONCILIATION);

    assertThat(sweep.sweep()).isEqualTo(1);
    assertThat(sweep.sweep()).as("within its first pause").isZero();
    clock.advance(Duration.ofSeconds(10));
    assertThat(sweep.sweep()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(10));
    assertThat(sweep.sweep()).as("the second pause is twice the first").isZero();
    clock.advance(Duration.ofSeconds(10));
    assertThat(sweep.sweep()).isEqualTo(1);
    clock.advance(Duration.ofHours(1));
    assertThat(sweep.sweep()).as("three questions were the last").isZero();

    assertThat(asked).containsExactly(requestId, requestId, requestId);
    assertThat(questions.unresolved(10)).singleElement().satisfies(u -> {
      assertThat(u.push().requestId().toString()).isEqualTo(requestId);
      assertThat(u.push().status()).isEqualTo(StkStatus.PENDING);
      assertThat(u.questions()).isEqualTo(3);
    });
  }

  @Test
  void pushesLeftToOperatorsOrWaitingForTheirNextQuestionDoNotStarveNewerOnes() {
    String oldest = leaveOverduePushes(1).getFirst();
    OverdueStkPushes sweep = replica(this::record, new OverdueSettings(Duration.ofSeconds(60), Duration.ofSeconds(10),
        1));
    sweep.sweep();
    String newer = leaveOverduePushes(1).getFirst();

    assertThat(sweep.sweep()).isEqualTo(1);

    assertThat(asked).containsExactly(oldest, newer);
  }

  @Test
  void aPushWhoseQuestionAlwaysFailsKeepsNoOtherWaitingAndEndsWithTheOperators() {
    List<String> overdue = leaveOverduePushes(2);
    String failing = overdue.getFirst();
    OverdueStkPushes sweep = replica(prompt -> {
      record(prompt);
      if (prompt.requestId().toString().equals(failing)) {
        throw new IllegalStateException("the rail's store is unreadable for this push");
      }
    });

    for (int i = 0; i < 3; i++) {
      sweep.sweep();
      clock.advance(Duration.ofSeconds(30));
    }

    assertThat(asked).filteredOn(overdue.get(1)::equals).hasSize(3);
    assertThat(new OverdueQuestions(own, RECONCILIATION).unresolved(10))
        .extracting(u -> u.push().requestId().toString()).contains(failing);
  }

  @Test
  void aPushSettledMeanwhileIsNeitherAskedAgainNorLeftToOperators() {
    String requestId = leaveOverduePushes(1).getFirst();
    OverdueStkPushes sweep = replica(prompt -> {
      record(prompt);
      own.getCollection(StkPushStore.COLLECTION).updateOne(Filters.eq("_id", prompt.requestId().toString()),
          com.mongodb.client.model.Updates.set("status", "SUCCESS")); // the answer settled it
    });

    sweep.sweep();
    clock.advance(Duration.ofHours(1));
    sweep.sweep();

    assertThat(asked).containsExactly(requestId);
    Document stored = own.getCollection(StkPushStore.COLLECTION).find(Filters.eq("_id", requestId)).first();
    assertThat(stored).doesNotContainKeys(OverdueQuestions.QUESTIONS, OverdueQuestions.UNRESOLVED_AT);
    assertThat(new OverdueQuestions(own, RECONCILIATION).unresolved(10)).isEmpty();
  }

  private OverdueStkPushes replica(Consumer<StkPrompt> questions) {
    return replica(questions, SETTINGS);
  }

  private OverdueStkPushes replica(Consumer<StkPrompt> questions, OverdueSettings settings) {
    StkRail rail = new StkRail() {
      @Override
      public void sendPrompt(StkPrompt prompt) {
        throw new AssertionError("an overdue sweep must not prompt the customer again");
      }

      @Override
      public void queryOutcome(StkPrompt prompt) {
        questions.accept(prompt);
      }
    };
    return new OverdueStkPushes(new OverdueQuestions(own, RECONCILIATION), () -> rail, settings, clock, leases);
  }

  private void record(StkPrompt prompt) {
    asked.add(prompt.requestId().toString());
  }

  private List<String> leaveOverduePushes(int count) {
    List<String> requestIds = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StkPush push = overduePush("254708374149", clock.instant().minus(10, ChronoUnit.MINUTES));
      own.getCollection(StkPushStore.COLLECTION).insertOne(StkPushStore.toDocument(push));
      requestIds.add(push.requestId().toString());
    }
    return requestIds;
  }

  /** What a crash leaves: a push stored PENDING long ago, its accepted event long published, its timer gone. */
  private static StkPush overduePush(String phoneNumber, Instant createdAt) {
    return StkPush.restore(new StkPush.Details(Math.abs(UUID.randomUUID().getMostSignificantBits() >> 11),
            RequestId.random(), OrganisationId.of(newOrganisation()), null, phoneNumber, "Lost timer", "INV1",
            new BigDecimal("25"), StkCurrency.KSH, "https://merchant.example/lost", createdAt, null, null, null),
        StkStatus.PENDING, createdAt, null, null);
  }
}
