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
  void leasesOfDifferentJobsAreIndependent() {
    assertThat(leases.acquire("one", "a", LEASE)).isPresent();
    assertThat(leases.acquire("two", "b", LEASE)).isPresent();
  }
}
