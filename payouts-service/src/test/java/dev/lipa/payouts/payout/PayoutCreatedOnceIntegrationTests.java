package dev.lipa.payouts.payout;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.common.ids.RecordIds;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.once.Creation;
import dev.lipa.common.once.Earlier;
import dev.lipa.common.once.Origin;
import dev.lipa.common.outbox.Outboxes;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.ledger.LedgerEntry;
import dev.lipa.payouts.ledger.LedgerStore;
import dev.lipa.payouts.ledger.MovementKind;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.sendmoney.SendMoneyRequest;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

/**
 * A send-money request is created once (common's "create once" step) and a repeat moves no money, against the real
 * ledger and store: a replay or a conflict leaves the balance and the journal exactly as they were, and a repeat that
 * loses the race for the insert gives back the reservation it made meanwhile.
 */
class PayoutCreatedOnceIntegrationTests extends PayoutsIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Autowired
  MongoDatabase mongo;
  @Autowired
  Outboxes outboxes;
  @Autowired
  PayoutOutboxEvents outboxEvents;
  @Autowired
  RecordIds ids;
  @Autowired
  Ledger ledger;
  @Autowired
  LedgerStore ledgerStore;
  @Autowired
  Clock clock;

  private static String body(String referenceId, int amount) {
    return kenyan("254712345678", amount).replace("{", "{\"referenceId\":\"" + referenceId + "\",");
  }

  /** Waits until the payout has its outcome and its reservation left the account: nothing moves on its own after. */
  private void settled(String org, String requestId) {
    await(() -> {
      Document payout = database.getCollection(PayoutStore.COLLECTION).find(Filters.eq("_id", requestId)).first();
      return payout != null && !"PENDING".equals(payout.getString("status"))
          && balance(org, "KSH")[1].signum() == 0;
    });
  }

  private List<LedgerEntry> journal(String org) {
    return ledgerStore.entries(org, Currency.KSH);
  }

  @Test
  void aReplayedOrConflictingSendMoneyLeavesTheBalanceAndTheJournalAsTheyWere() {
    String org = newOrganisation();
    String first = create(SEND_MONEY, org, body("pay-1", 100));
    settled(org, first);
    BigDecimal[] before = balance(org, "KSH");
    List<LedgerEntry> journalBefore = journal(org);

    TestHttp.Response replay = http().postJson(SEND_MONEY, body("pay-1", 100), as(org));
    TestHttp.Response conflict = http().postJson(SEND_MONEY, body("pay-1", 200), as(org));

    assertThat(replay.status()).isEqualTo(201);
    assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(replay.json().get("data").get("requestId").stringValue()).isEqualTo(first);
    assertThat(conflict.status()).isEqualTo(409);
    assertThat(conflict.json().get("message").stringValue())
        .isEqualTo("referenceId pay-1 was already used with a different request body");
    assertThat(balance(org, "KSH")).containsExactly(before);
    assertThat(journal(org)).isEqualTo(journalBefore);
  }

  @Test
  void aReplayIsAnsweredEvenWhenTheBalanceNoLongerCoversItsAmount() {
    String org = newOrganisation();
    String first = create(SEND_MONEY, org, body("pay-all", 1000));
    settled(org, first);

    TestHttp.Response replay = http().postJson(SEND_MONEY, body("pay-all", 1000), as(org));

    assertThat(replay.status()).isEqualTo(201);
    assertThat(replay.json().get("data").get("requestId").stringValue()).isEqualTo(first);
  }

  @Test
  void aRepeatThatLosesTheRaceForTheInsertGivesBackTheReservationItMadeMeanwhile() {
    String org = newOrganisation();
    String first = create(SEND_MONEY, org, body("pay-race", 100));
    settled(org, first);
    BigDecimal[] before = balance(org, "KSH");
    List<LedgerEntry> journalBefore = journal(org);
    // the repeat's first look misses the earlier payout, as when both requests look before either has inserted
    AtomicBoolean missedOnce = new AtomicBoolean();
    PayoutStore racing = new PayoutStore(mongo, outboxes, outboxEvents) {
      @Override
      public Optional<Earlier<Payout>> findByReference(String organisationId, PayoutKind kind, String referenceId) {
        return missedOnce.compareAndSet(false, true) ? Optional.empty()
            : super.findByReference(organisationId, kind, referenceId);
      }
    };
    Payouts payouts = new Payouts(racing, ids, ledger, clock);

    Creation<Payout> creation = payouts.accept(org, request("pay-race", 100), new Origin(fingerprint("pay-race", 100), null));

    assertThat(missedOnce).isTrue();
    assertThat(creation).isInstanceOfSatisfying(Creation.Replayed.class,
        replayed -> assertThat(((Payout) replayed.record()).requestId().toString()).isEqualTo(first));
    assertThat(balance(org, "KSH")).containsExactly(before);
    List<LedgerEntry> added = journal(org).stream().filter(entry -> !journalBefore.contains(entry)).toList();
    assertThat(added).extracting(LedgerEntry::kind).containsExactly(MovementKind.RESERVE, MovementKind.RELEASE);
    assertThat(added).extracting(LedgerEntry::requestId).doesNotContain(first).containsOnly(added.get(0).requestId());
  }

  private static PayoutRequest request(String referenceId, int amount) {
    return SendMoneyRequest.from(JSON.readTree(body(referenceId, amount)));
  }

  /** The fingerprint the endpoint computes for the same body. */
  private static String fingerprint(String referenceId, int amount) {
    return RequestFingerprint.of(JSON.readTree(body(referenceId, amount)));
  }
}
