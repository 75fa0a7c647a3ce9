package dev.lipa.payouts.payout;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RecordIds;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.lease.Leases;
import dev.lipa.common.once.Origin;
import dev.lipa.common.outbox.Outbox;
import dev.lipa.common.outbox.Outboxes;
import dev.lipa.common.rail.OverdueSettings;
import dev.lipa.common.testsupport.MutableClock;
import dev.lipa.common.testsupport.TopicRecorder;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.ledger.Balance;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.ledger.LedgerStore;
import dev.lipa.payouts.ledger.MovementKind;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.payout.rail.PayoutOrder;
import dev.lipa.payouts.payout.rail.PayoutRail;
import dev.lipa.payouts.payout.rail.sandbox.SandboxPayoutOutcomes;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * Two replicas of payouts' overdue sweep (two {@link OverduePayouts}, each with its own {@link Payouts}, ledger and
 * rail, as two processes have them) against one store and broker: the rail is asked about each overdue payout by one
 * replica only, a replica paused past its lease asks nothing more once it wakes (its fencing check refuses), and each
 * overdue payout is settled once: one outcome event, one ledger movement, one callback request.
 *
 * <p>The rails here answer later, as a real rail answers a status query by a callback: the answers are delivered
 * after the sweeps, each to the replica that asked. That is what lets a doubled question be seen at all (a rail that
 * answers at once completes the payout before the other replica reads its batch).
 */
class OverduePayoutsIntegrationTests extends PayoutsIntegrationTest {

  private static final OverdueSettings SETTINGS = new OverdueSettings(Duration.ofSeconds(60), Duration.ofSeconds(10),
      100);
  private static final Duration LEASE = SETTINGS.sweepInterval().multipliedBy(OverduePayouts.LEASE_INTERVALS);
  private static final BigDecimal AMOUNT = new BigDecimal("100");
  /** The sandbox's invalid-account number: its payout fails and its reservation is released. */
  private static final String FAILING_PHONE = "2547" + "0" + SandboxPayoutOutcomes.INVALID_ACCOUNT_SUFFIX;

  @Autowired
  private MongoClient client;
  @Autowired
  private Outboxes outboxes;
  @Autowired
  private PayoutOutboxEvents outboxEvents;
  @Autowired
  private PayoutsProperties properties;

  private final MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
  /** Every question the replicas asked the rail, by requestId, in order. */
  private final List<String> asked = new CopyOnWriteArrayList<>();
  /** The rails' answers not delivered yet, each to be applied by the replica that asked. */
  private final List<Runnable> answers = new CopyOnWriteArrayList<>();
  private final List<Replica> replicas = new ArrayList<>();
  private final OrganisationId organisation = OrganisationId.of(newOrganisation());
  private MongoDatabase own;
  private PayoutStore store;
  private LedgerStore ledgerStore;
  private Leases leases;

  @BeforeEach
  void ownDatabase() {
    // a database of its own: the service's own sweep (and other tests' payouts) stay out of these counts
    own = client.getDatabase("overdue-payouts-" + UUID.randomUUID());
    store = new PayoutStore(own, outboxes, outboxEvents);
    ledgerStore = new LedgerStore(own);
    leases = new Leases(own.getCollection(Leases.COLLECTION), clock);
  }

  @AfterEach
  void stopReplicas() {
    replicas.forEach(Replica::close);
  }

  @Test
  void twoReplicasSweepingAtOnceAskAboutEachOverduePayoutOnceAndSettleItOnce() throws Exception {
    List<String> overdue = leaveOverduePayouts(List.of("254708374141", "254708374142", "254708374143",
        "254708374144", FAILING_PHONE));
    Replica replicaA = replica(this::record);
    Replica replicaB = replica(this::record);

    // both replicas' timers fire at the same moment
    CountDownLatch start = new CountDownLatch(1);
    int swept;
    try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
      Future<Integer> byA = pool.submit(() -> {
        start.await();
        return replicaA.sweep.sweep();
      });
      Future<Integer> byB = pool.submit(() -> {
        start.await();
        return replicaB.sweep.sweep();
      });
      start.countDown();
      swept = byA.get() + byB.get();
    }

    assertThat(swept).isEqualTo(5);
    assertThat(asked).as("each overdue payout asked about by one replica").containsExactlyInAnyOrderElementsOf(overdue);
    deliverAnswers();
    assertEachSettledOnce(overdue);
    assertBalance(new BigDecimal("600"));
  }

  @Test
  void aReplicaPausedPastItsLeaseAsksNothingMoreOnceAnotherTookOver() {
    List<String> overdue = leaveOverduePayouts(List.of("254708374151", "254708374152", "254708374153",
        "254708374154", FAILING_PHONE));
    List<String> askedByA = new ArrayList<>();
    Replica[] replicaB = new Replica[1];
    Replica replicaA = replica(order -> {
      askedByA.add(order.requestId().toString());
      record(order);
      if (askedByA.size() == 1) {
        // A pauses (a GC pause, SIGSTOP) right after its first question, past its lease; B's timer takes the job over
        clock.advance(LEASE.plusSeconds(1));
        assertThat(replicaB[0].sweep.sweep()).isEqualTo(5);
      }
    });
    replicaB[0] = replica(this::record);

    assertThat(replicaA.sweep.sweep()).as("A's run ended at its fencing check when it woke").isZero();

    assertThat(askedByA).hasSize(1);
    // A's one question before it paused, then B's five: A asked nothing after waking up
    assertThat(asked).hasSize(6).containsAll(overdue);
    // and while B holds the lease, A's next runs are skipped
    assertThat(replicaA.sweep.sweep()).isZero();
    assertThat(asked).hasSize(6);
    // the payout asked about twice is answered twice, once to each replica: it is still settled once
    deliverAnswers();
    assertEachSettledOnce(overdue);
    assertBalance(new BigDecimal("600"));
  }

  @Test
  void theJobMovesToTheOtherReplicaOnceItsHolderStopsRenewing() {
    leaveOverduePayouts(List.of("254708374161"));
    Replica replicaA = replica(this::record);
    Replica replicaB = replica(this::record);
    assertThat(replicaA.sweep.sweep()).isEqualTo(1);

    // A died before the rail answered: nothing renews its lease; B gets the job once the lease has run out
    clock.advance(LEASE.minusSeconds(1));
    assertThat(replicaB.sweep.sweep()).isZero();
    clock.advance(Duration.ofSeconds(1));
    assertThat(replicaB.sweep.sweep()).isEqualTo(1);
  }

  /** The service's own sweep (every 500 ms) and a second started one, both on the service's store, rail and lease. */
  @Test
  void anOverduePayoutIsSettledOnceWhileTheServiceAndASecondReplicaSweep(@Autowired Payouts payouts,
      @Autowired ObjectProvider<PayoutRail> rail, @Autowired Leases serviceLeases, @Autowired Ledger ledger) {
    try (OverduePayouts second = new OverduePayouts(payouts, rail, properties, Clock.systemUTC(), serviceLeases)) {
      // what a crash leaves: a payout reserved and stored PENDING long ago, its accepted event long published,
      // the rail's timer (or its answer) lost
      Instant longAgo = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MILLIS);
      Payout payout = Payout.accept(Math.abs(UUID.randomUUID().getMostSignificantBits() >> 11), RequestId.random(),
          organisation, sendMoney("254708374171"), "12345-67890123-1", longAgo);
      ledger.reserve(organisation, Currency.KSH, payout.requestId(), AMOUNT);
      database.getCollection(PayoutStore.COLLECTION).insertOne(PayoutStore.toDocument(payout));
      String requestId = payout.requestId().toString();

      Document stored = Awaitility.await().atMost(Duration.ofSeconds(30)).until(
          () -> database.getCollection(PayoutStore.COLLECTION).find(Filters.eq("_id", requestId)).first(),
          d -> d != null && "SUCCESS".equals(d.getString("status")) && !d.containsKey(Outbox.EVENTS));

      assertThat(stored.getInteger("resultCode")).isZero();
      assertThat(TopicRecorder.once(Topics.PAYOUTS, requestId, "sendmoney.succeeded")).hasSize(1);
      assertThat(TopicRecorder.once(Topics.CALLBACKS, requestId, PayoutOutboxEvents.CALLBACK_REQUESTED)).hasSize(1);
      assertThat(database.getCollection(LedgerStore.ENTRIES).countDocuments(
          Filters.and(Filters.eq("requestId", requestId), Filters.eq("kind", MovementKind.SETTLE.name())))).isOne();
      Balance balance = ledger.balance(organisation, Currency.KSH);
      assertThat(balance.reserved()).isEqualByComparingTo("0");
      assertThat(balance.available()).isEqualByComparingTo("900");
    }
  }

  /** One replica: its own payouts use case, ledger and rail over the shared store, its own sweep. */
  private record Replica(Ledger ledger, Payouts payouts, OverduePayouts sweep) {

    void close() {
      sweep.close();
      ledger.close();
    }
  }

  private Replica replica(Consumer<PayoutOrder> questions) {
    var owners = new StaticListableBeanFactory(Map.of("owners", store))
        .getBeanProvider(dev.lipa.payouts.ledger.ReservationOwners.class);
    Ledger ledger = new Ledger(ledgerStore, owners, properties, clock);
    Payouts payouts = new Payouts(store, new RecordIds(clock), ledger, clock);
    PayoutRail rail = new PayoutRail() {
      @Override
      public void pay(PayoutOrder order) {
        throw new AssertionError("an overdue sweep must not pay again");
      }

      @Override
      public void queryOutcome(PayoutOrder order) {
        questions.accept(order);
        // the sandbox's deterministic answer, applied later by the replica that asked
        answers.add(() -> payouts.apply(SandboxPayoutOutcomes.decide(order, clock.instant(), properties.zone())));
      }
    };
    Replica replica = new Replica(ledger, payouts, new OverduePayouts(payouts, () -> rail, SETTINGS, clock, leases));
    replicas.add(replica);
    return replica;
  }

  private void record(PayoutOrder order) {
    asked.add(order.requestId().toString());
  }

  private void deliverAnswers() {
    answers.forEach(Runnable::run);
  }

  /** Accepts a send-money payout per phone number through a replica's use case, then lets them become overdue. */
  private List<String> leaveOverduePayouts(List<String> phoneNumbers) {
    Payouts accepting = replica(order -> {
      throw new AssertionError("not a sweeping replica");
    }).payouts();
    List<String> requestIds = new ArrayList<>();
    for (String phone : phoneNumbers) {
      var created = accepting.accept(organisation, sendMoney(phone), new Origin("fingerprint-" + phone, null));
      Payout payout = ((dev.lipa.common.once.Creation.Created<Payout>) created).record();
      requestIds.add(payout.requestId().toString());
    }
    // the rail's timers were lost (a crash) and nobody answered: now they are overdue
    clock.advance(SETTINGS.after().plusSeconds(1));
    return requestIds;
  }

  private static PayoutRequest sendMoney(String phone) {
    return new PayoutRequest(PayoutKind.SEND_MONEY, Currency.KSH, AMOUNT, "https://merchant.example/callbacks/b2c",
        null, phone, null, null, "salary", "June", null, null, null, null, null);
  }

  /**
   * One final state, one outcome event, one ledger movement and one callback request for each payout: once every
   * payout has its outcome event, a quiet spell in which a second one would arrive.
   */
  private void assertEachSettledOnce(List<String> requestIds) {
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> requestIds.stream().allMatch(
        id -> !outcomes(id).isEmpty()
            && !TopicRecorder.records(Topics.CALLBACKS, id, PayoutOutboxEvents.CALLBACK_REQUESTED).isEmpty()));
    Awaitility.await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> true);
    for (String requestId : requestIds) {
      Document stored = own.getCollection(PayoutStore.COLLECTION).find(Filters.eq("_id", requestId)).first();
      assertThat(stored).isNotNull();
      boolean succeeded = "SUCCESS".equals(stored.getString("status"));
      assertThat(stored.getString("status")).isIn("SUCCESS", "FAILED");
      assertThat(own.getCollection(LedgerStore.ENTRIES).countDocuments(Filters.and(
          Filters.eq("requestId", requestId),
          Filters.in("kind", MovementKind.SETTLE.name(), MovementKind.RELEASE.name()))))
          .as("ledger movements settling %s", requestId).isOne();
      assertThat(own.getCollection(LedgerStore.ENTRIES).countDocuments(Filters.and(
          Filters.eq("requestId", requestId),
          Filters.eq("kind", (succeeded ? MovementKind.SETTLE : MovementKind.RELEASE).name())))).isOne();
      assertThat(outcomes(requestId)).as("outcome events of %s", requestId).hasSize(1)
          .allSatisfy(r -> assertThat(r.value()).contains(succeeded ? "sendmoney.succeeded" : "sendmoney.failed"));
      assertThat(TopicRecorder.records(Topics.CALLBACKS, requestId, PayoutOutboxEvents.CALLBACK_REQUESTED))
          .as("callback requests of %s", requestId).hasSize(1);
    }
  }

  private static List<ConsumerRecord<String, String>> outcomes(String requestId) {
    List<ConsumerRecord<String, String>> outcomes = new ArrayList<>(
        TopicRecorder.records(Topics.PAYOUTS, requestId, "sendmoney.succeeded"));
    outcomes.addAll(TopicRecorder.records(Topics.PAYOUTS, requestId, "sendmoney.failed"));
    return outcomes;
  }

  private void assertBalance(BigDecimal available) {
    Ledger reading = replicas.getFirst().ledger();
    Balance balance = reading.balance(organisation, Currency.KSH);
    assertThat(balance.reserved()).isEqualByComparingTo("0");
    assertThat(balance.available()).isEqualByComparingTo(available);
  }
}
