package dev.lipa.payouts.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.testsupport.MutableClock;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * Two replicas' ledgers (two {@link Ledger}s with their repair jobs running, as two processes have) on one store: a
 * reservation no payout owns is released once, whichever replica's repair finds it first. The repair job runs on
 * every replica without a lease (kind b in docs/operations.md): its release is the ledger's guarded movement.
 */
class LedgerRepairIntegrationTests extends PayoutsIntegrationTest {

  @Autowired
  private MongoClient client;
  @Autowired
  private PayoutsProperties properties;

  private final MutableClock clock = new MutableClock(Instant.now());
  private MongoDatabase own;
  private Ledger replicaA;
  private Ledger replicaB;

  @BeforeEach
  void twoReplicas() {
    // a database of its own: the service's own repair job and other tests' reservations stay out of it
    own = client.getDatabase("repair-" + UUID.randomUUID());
    LedgerStore store = new LedgerStore(own);
    ReservationOwners nobody = (organisation, requestId) -> false;
    var owners = new StaticListableBeanFactory(Map.of("owners", nobody)).getBeanProvider(ReservationOwners.class);
    replicaA = new Ledger(store, owners, properties, clock);
    replicaB = new Ledger(store, owners, properties, clock);
  }

  @AfterEach
  void stop() {
    replicaA.close();
    replicaB.close();
  }

  @Test
  void anOrphanedReservationIsReleasedOnceByTwoReplicasRepairing() {
    OrganisationId organisation = OrganisationId.of(UUID.randomUUID().toString());
    RequestId orphan = RequestId.random();
    // a crash between the reservation and the payout's insert: nobody owns this reservation
    replicaA.reserve(organisation, Currency.KSH, orphan, new BigDecimal("300"));
    assertThat(replicaB.balance(organisation, Currency.KSH).reserved()).isEqualByComparingTo("300");

    clock.advance(properties.ledger().orphanAfter().plusSeconds(1));
    // both repair jobs run every 500 ms from now on; and both are also asked at once here
    int released = replicaA.repair() + replicaB.repair();

    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(
        () -> replicaA.balance(organisation, Currency.KSH).reserved().signum() == 0);
    // a few more repair rounds of both replicas: nothing is released a second time
    org.awaitility.Awaitility.await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5))
        .until(() -> true);
    Balance after = replicaB.balance(organisation, Currency.KSH);
    assertThat(after.available()).isEqualByComparingTo("1000");
    assertThat(after.reserved()).isEqualByComparingTo("0");
    assertThat(released).isLessThanOrEqualTo(1);
    assertThat(own.getCollection(LedgerStore.ENTRIES).countDocuments(
        Filters.and(Filters.eq("requestId", orphan.toString()), Filters.eq("kind", MovementKind.RELEASE.name()))))
        .isOne();
  }
}
