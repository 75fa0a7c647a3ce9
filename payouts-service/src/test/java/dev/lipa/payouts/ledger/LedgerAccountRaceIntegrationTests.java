package dev.lipa.payouts.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.PayoutsProperties;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

/**
 * A guarded update that matches nothing is explained by reading the account afterwards; these tests put another
 * writer between the two statements, deterministically: a command listener on a second client opens the account
 * (as the balance endpoint or another credit would) the moment the update returns "no match", before the read.
 * Found by CI: a credit whose account was opened in that gap was judged "refused" and silently dropped.
 */
class LedgerAccountRaceIntegrationTests extends PayoutsIntegrationTest {

  @Autowired
  LedgerStore store;

  @Autowired
  PayoutsProperties properties;

  @Autowired
  ObjectProvider<ReservationOwners> owners;

  @Value("${spring.mongodb.database}")
  String databaseName;

  /** The account to open as soon as an update on it comes back without a match; null when disarmed. */
  private final AtomicReference<String> openOnMiss = new AtomicReference<>();
  /** The organisation whose account commands on the racing client are recorded. */
  private final AtomicReference<String> watching = new AtomicReference<>();
  /** What the racing client saw of each staged race, by organisation: the proof that the two writers overlapped. */
  private final Map<String, List<String>> staged = new ConcurrentHashMap<>();
  /** The commands on an armed account, by request id of the command, until they answer. */
  private final Map<Integer, String> watched = new ConcurrentHashMap<>();
  private MongoClient racingClient;
  private LedgerStore racingStore;
  private Ledger racingLedger;

  @BeforeEach
  void racingLedger() {
    CommandListener opener = new CommandListener() {
      @Override
      public void commandStarted(CommandStartedEvent event) {
        // only the commands on the watched organisation's account (the racing ledger's repair job shares this client)
        String organisationId = watching.get();
        if (organisationId != null && (event.getCommandName().equals("findAndModify")
            || event.getCommandName().equals("find"))
            && event.getCommand().toJson().contains("\"" + organisationId + ":KSH\"")) {
          watched.put(event.getRequestId(), organisationId);
        }
      }

      @Override
      public void commandSucceeded(CommandSucceededEvent event) {
        String organisationId = watched.remove(event.getRequestId());
        if (organisationId == null) {
          return;
        }
        List<String> steps = staged.computeIfAbsent(organisationId, o -> new CopyOnWriteArrayList<>());
        if (event.getCommandName().equals("findAndModify")) {
          BsonValue value = event.getResponse().get("value");
          boolean missed = value != null && value.isNull();
          if (missed && openOnMiss.compareAndSet(organisationId, null)) {
            steps.add("update missed");
            // the application's own store, on its own client: the other writer, in the gap before the read
            store.open(OrganisationId.of(organisationId), Currency.KSH, new BigDecimal("1000"), Instant.now());
            steps.add("account opened");
          } else {
            steps.add(missed ? "update missed" : "update applied");
          }
        } else {
          BsonDocument cursor = event.getResponse().getDocument("cursor", new BsonDocument());
          boolean found = !cursor.getArray("firstBatch", new BsonArray()).isEmpty();
          steps.add(found ? "read found the account" : "read found no account");
        }
      }
    };
    racingClient = MongoClients.create(MongoClientSettings.builder()
        .applyConnectionString(new ConnectionString(SharedInfra.mongoUri())).addCommandListener(opener).build());
    racingStore = new LedgerStore(racingClient.getDatabase(databaseName));
    racingLedger = new Ledger(racingStore, owners, properties, Clock.systemUTC());
  }

  /** Opens the organisation's account the moment an update on it misses, and records what follows. */
  private void arm(String organisationId) {
    watching.set(organisationId);
    openOnMiss.set(organisationId);
  }

  /**
   * The guard of every test here: the racing writer's update on the account missed, the other writer opened the
   * account right then, and the read that explains the miss found the account the other writer opened. Without it a
   * change that no longer misses (an account opened up front, another command) would pass these tests untested.
   */
  private void assertRaceStaged(String organisationId) {
    assertThat(staged.getOrDefault(organisationId, List.of())).as("the race was staged for " + organisationId)
        .startsWith("update missed", "account opened", "read found the account");
  }

  @AfterEach
  void close() {
    racingLedger.close();
    racingClient.close();
  }

  @Test
  void aCreditWhoseAccountIsOpenedBetweenItsUpdateAndTheReadIsAppliedNotDropped() {
    String org = newOrganisation();
    arm(org);

    assertThat(racingLedger.creditAll(List.of(credit(org, "250")))).hasSize(1);

    assertRaceStaged(org);
    assertThat(racingLedger.balance(OrganisationId.of(org), Currency.KSH).available()).isEqualByComparingTo("1250");
    assertThat(store.entries(OrganisationId.of(org), Currency.KSH)).hasSize(2);
  }

  @Test
  void theStoreCallsThatMissChangedNotRefusedNorDuplicate() {
    String org = newOrganisation();
    arm(org);

    assertThat(racingStore.apply(credit(org, "5"), Instant.now())).isEqualTo(MovementOutcome.CHANGED);
    assertRaceStaged(org);

    String other = newOrganisation();
    arm(other);
    assertThat(racingStore.applyAll(List.of(credit(other, "1"), credit(other, "2")), Instant.now()))
        .isEqualTo(MovementOutcome.CHANGED);
    assertRaceStaged(other);
    // nothing was applied by either: both accounts hold their opening float only
    assertThat(racingLedger.balance(OrganisationId.of(org), Currency.KSH).available()).isEqualByComparingTo("1000");
    assertThat(racingLedger.balance(OrganisationId.of(other), Currency.KSH).available()).isEqualByComparingTo("1000");
  }

  @Test
  void aGroupOfCreditsWhoseAccountIsOpenedInTheGapIsAppliedAsAGroup() {
    String org = newOrganisation();
    arm(org);

    assertThat(racingLedger.creditAll(List.of(credit(org, "1.50"), credit(org, "2.25"), credit(org, "3"))))
        .hasSize(3);

    assertRaceStaged(org);

    assertThat(racingLedger.balance(OrganisationId.of(org), Currency.KSH).available()).isEqualByComparingTo("1006.75");
    assertThat(store.entries(OrganisationId.of(org), Currency.KSH)).hasSize(4);
  }

  @Test
  void aReservationMissedOnlyForItsHoldIsADuplicateAndASettlementWithoutAHoldIsRefused() {
    String org = newOrganisation();
    RequestId requestId = RequestId.random();
    racingLedger.reserve(OrganisationId.of(org), Currency.KSH, requestId, new BigDecimal("100"));
    // as if the reservation's id had left the recent window: the hold alone shows it was applied
    database.getCollection(LedgerStore.ACCOUNTS).updateOne(new org.bson.Document("_id", org + ":KSH"),
        new org.bson.Document("$set", new org.bson.Document("recent", List.of())));

    assertThat(racingStore.apply(new Movement(OrganisationId.of(org), Currency.KSH, MovementKind.RESERVE,
        requestId.toString(), new BigDecimal("100")), Instant.now())).isEqualTo(MovementOutcome.DUPLICATE);
    assertThat(racingStore.apply(new Movement(OrganisationId.of(org), Currency.KSH, MovementKind.SETTLE,
        RequestId.random().toString(), new BigDecimal("100")), Instant.now())).isEqualTo(MovementOutcome.REFUSED);
    assertThat(racingLedger.balance(OrganisationId.of(org), Currency.KSH).reserved()).isEqualByComparingTo("100");
  }

  private static Movement credit(String org, String amount) {
    return new Movement(OrganisationId.of(org), Currency.KSH, MovementKind.CREDIT,
        "stk.succeeded:" + UUID.randomUUID(), new BigDecimal(amount));
  }
}
