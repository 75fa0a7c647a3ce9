package dev.lipa.common.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import dev.lipa.common.testsupport.MutableClock;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.store.StoreBackends;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Leases against the Mongo wire server of {@link SharedInfra}, with a clock the test moves. */
class LeasesIntegrationTests {

  private static final Duration LEASE = Duration.ofSeconds(30);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private Leases leases;

  @BeforeEach
  void freshCollection() {
    leases = new Leases(SharedInfra.mongoClient().getDatabase("lease-tests")
        .getCollection("leases-" + UUID.randomUUID()), clock);
  }

  @Test
  void aLiveLeaseIsGrantedToOneHolderOnly() {
    Optional<Lease> first = leases.acquire("job", "a", LEASE);
    Optional<Lease> second = leases.acquire("job", "b", LEASE);

    assertThat(first).isPresent();
    assertThat(second).isEmpty();
    assertThat(leases.holds(first.get())).isTrue();
  }

  @Test
  void manyReplicasRacingForAFreeLeaseGetOneGrant() throws Exception {
    int replicas = 16;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Optional<Lease>>> grants = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(replicas)) {
      for (int i = 0; i < replicas; i++) {
        String holder = "replica-" + i;
        Callable<Optional<Lease>> race = () -> {
          start.await();
          return leases.acquire("race", holder, LEASE);
        };
        grants.add(pool.submit(race));
      }
      start.countDown();
      int granted = 0;
      for (Future<Optional<Lease>> grant : grants) {
        granted += grant.get().isPresent() ? 1 : 0;
      }
      assertThat(granted).isEqualTo(1);
    }
  }

  @Test
  void theHolderRenewsItsOwnLeaseWithAGreaterToken() {
    Lease first = leases.acquire("job", "a", LEASE).orElseThrow();
    clock.advance(Duration.ofSeconds(10));

    Lease renewed = leases.acquire("job", "a", LEASE).orElseThrow();

    assertThat(renewed.token()).isGreaterThan(first.token());
    assertThat(renewed.until()).isEqualTo(first.until().plusSeconds(10));
    // the earlier run's holding is over: only the newest token acts
    assertThat(leases.holds(first)).isFalse();
    assertThat(leases.holds(renewed)).isTrue();
  }

  @Test
  void anExpiredLeaseGoesToTheNextHolderWithAGreaterToken() {
    Lease first = leases.acquire("job", "a", LEASE).orElseThrow();
    clock.advance(LEASE);

    Lease taken = leases.acquire("job", "b", LEASE).orElseThrow();

    assertThat(taken.holder()).isEqualTo("b");
    assertThat(taken.token()).isGreaterThan(first.token());
  }

  @Test
  void aHolderPausedPastItsLeaseCannotActOnceAnotherTookItOver() {
    LeasedJob replicaA = new LeasedJob(leases, "sweep", LEASE);
    LeasedJob replicaB = new LeasedJob(leases, "sweep", LEASE);
    List<String> acts = new ArrayList<>();

    Optional<Integer> aRun = replicaA.runIfHolder(lease -> {
      replicaA.check(lease);
      acts.add("a1");
      // replica A stalls (a GC pause, SIGSTOP) past its lease; B's next run takes the job over meanwhile
      clock.advance(LEASE.plusSeconds(1));
      Optional<Integer> bRun = replicaB.runIfHolder(taken -> {
        replicaB.check(taken);
        acts.add("b1");
        return 1;
      });
      assertThat(bRun).contains(1);
      // A wakes up and goes on with its batch: its fencing check stops it before its next act
      replicaA.check(lease);
      acts.add("a2");
      return 2;
    });

    assertThat(aRun).isEmpty();
    assertThat(acts).containsExactly("a1", "b1");
  }

  @Test
  void aHolderPausedPastItsLeaseCannotActEvenBeforeAnotherTookItOver() {
    Lease lease = leases.acquire("job", "a", LEASE).orElseThrow();
    clock.advance(LEASE);

    assertThatThrownBy(() -> leases.check(lease)).isInstanceOf(LeaseLostException.class);
  }

  @Test
  void aLiveLeaseSkipsTheOtherReplicasRun() {
    LeasedJob replicaA = new LeasedJob(leases, "sweep", LEASE);
    LeasedJob replicaB = new LeasedJob(leases, "sweep", LEASE);

    assertThat(replicaA.runIfHolder(lease -> "a")).contains("a");
    clock.advance(LEASE.dividedBy(2));
    assertThat(replicaB.runIfHolder(lease -> "b")).isEmpty();
    // A's next run renews it; B still waits
    assertThat(replicaA.runIfHolder(lease -> "a")).contains("a");
    clock.advance(LEASE.dividedBy(2));
    assertThat(replicaB.runIfHolder(lease -> "b")).isEmpty();
  }

  @Test
  void aReleasedLeaseGoesToTheNextReplicaAtOnce() {
    LeasedJob replicaA = new LeasedJob(leases, "sweep", LEASE);
    LeasedJob replicaB = new LeasedJob(leases, "sweep", LEASE);
    assertThat(replicaA.runIfHolder(lease -> "a")).contains("a");

    replicaA.release();

    assertThat(replicaB.runIfHolder(lease -> "b")).contains("b");
    assertThat(replicaA.runIfHolder(lease -> "a")).isEmpty();
  }

  /** Found as a 30 s hang at a test JVM's end: the service's context released its lease after the store had gone. */
  @Test
  void releasingWhenTheStoreIsGoneReturnsPromptly() {
    MongoServer store = new MongoServer(StoreBackends.memory());
    InetSocketAddress address = store.bind();
    try (MongoClient gone = MongoClients.create("mongodb://127.0.0.1:" + address.getPort())) {
      LeasedJob job = new LeasedJob(new Leases(gone.getDatabase("lease-tests").getCollection("leases"), clock),
          "sweep", LEASE);
      assertThat(job.runIfHolder(lease -> 1)).contains(1);
      store.shutdownNow();

      long started = System.nanoTime();
      job.release();

      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void aBatchStopsAtTheFencingCheckOnceAnotherReplicaTookTheLeaseOver() {
    LeasedJob replicaA = new LeasedJob(leases, "sweep", LEASE);
    LeasedJob replicaB = new LeasedJob(leases, "sweep", LEASE);
    List<String> acts = new ArrayList<>();

    int actedByA = replicaA.forEachHeld(() -> List.of("a1", "a2", "a3"), item -> {
      acts.add(item);
      if (item.equals("a1")) {
        // A stalls after its first act, past its lease; B's run takes the job over and acts on its whole batch
        clock.advance(LEASE.plusSeconds(1));
        assertThat(replicaB.forEachHeld(() -> List.of("b1", "b2"), acts::add)).isEqualTo(2);
      }
    });

    assertThat(actedByA).as("a run that lost its lease midway reports nothing").isZero();
    assertThat(acts).containsExactly("a1", "b1", "b2");
    // while B holds the lease, A's runs do not even read their batch
    assertThat(replicaA.<String>forEachHeld(() -> {
      throw new AssertionError("read without the lease");
    }, acts::add)).isZero();
  }

  @Test
  void aJobOnItsTimerKeepsRunningAfterAFailedRunAndStopsAndReleasesWhenClosed() {
    LeasedJob replicaA = new LeasedJob(leases, "timed", LEASE);
    LeasedJob replicaB = new LeasedJob(leases, "timed", LEASE);
    AtomicInteger runs = new AtomicInteger();
    replicaA.every(Duration.ofMillis(50), () -> replicaA.forEachHeld(() -> List.of(runs.incrementAndGet()), run -> {
      if (run == 1) {
        throw new IllegalStateException("the rail failed once");
      }
    }));
    try {
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() >= 3);
      assertThat(replicaB.runIfHolder(lease -> "b")).as("A holds the lease while it runs").isEmpty();
    } finally {
      replicaA.close();
    }
    int runsWhenClosed = runs.get();

    assertThat(replicaB.runIfHolder(lease -> "b")).as("closing released the lease").contains("b");
    // ten timer intervals after closing: no run came
    Awaitility.await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> true);
    assertThat(runs.get()).isEqualTo(runsWhenClosed);
  }

  @Test
  void leasesOfDifferentJobsAreIndependent() {
    assertThat(leases.acquire("one", "a", LEASE)).isPresent();
    assertThat(leases.acquire("two", "b", LEASE)).isPresent();
  }
}
