package dev.lipa.payouts.payout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.ServerAddress;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.common.idempotency.RequestFingerprint;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RecordIds;
import dev.lipa.common.once.Creation;
import dev.lipa.common.once.Earlier;
import dev.lipa.common.once.Insert;
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
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

/**
 * A send-money request creates its payout once (common's "create once" step), against the real ledger and store. A
 * repeat moves no money: a replay or a conflict leaves the balance and the journal exactly as they were, and a repeat
 * that loses the race for the insert gives back the reservation it made meanwhile. An insert that fails is not
 * assumed to have written nothing: a store that applied the payout and then timed out leaves a payout that will be
 * paid, so its reservation must stay (else it is paid without being debited).
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

  private static PayoutRequest request(String referenceId, int amount) {
    return SendMoneyRequest.from(JSON.readTree(body(referenceId, amount)));
  }

  /** The fingerprint the endpoint computes for the same body. */
  private static Origin origin(String referenceId, int amount) {
    return new Origin(RequestFingerprint.of(JSON.readTree(body(referenceId, amount))), null);
  }

  private List<LedgerEntry> journal(String org) {
    return ledgerStore.entries(OrganisationId.of(org), Currency.KSH);
  }

  /** A paid payout and the account as it stands once nothing moves on its own any more. */
  private record Paid(String org, String requestId, BigDecimal[] balance, List<LedgerEntry> journal) {
  }

  private Paid paid(String referenceId, int amount) {
    String org = newOrganisation();
    String requestId = create(SEND_MONEY, org, body(referenceId, amount));
    await(() -> {
      Document payout = database.getCollection(PayoutStore.COLLECTION).find(Filters.eq("_id", requestId)).first();
      return payout != null && !"PENDING".equals(payout.getString("status"))
          && balance(org, "KSH")[1].signum() == 0;
    });
    return new Paid(org, requestId, balance(org, "KSH"), journal(org));
  }

  @Nested
  class Repeats {

    @Test
    void aReplayedOrConflictingSendMoneyLeavesTheBalanceAndTheJournalAsTheyWere() {
      Paid first = paid("pay-1", 100);

      TestHttp.Response replay = http().postJson(SEND_MONEY, body("pay-1", 100), as(first.org()));
      TestHttp.Response conflict = http().postJson(SEND_MONEY, body("pay-1", 200), as(first.org()));

      assertThat(replay.status()).isEqualTo(201);
      assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(replay.json().get("data").get("requestId").stringValue()).isEqualTo(first.requestId());
      assertThat(conflict.status()).isEqualTo(409);
      assertThat(conflict.json().get("message").stringValue())
          .isEqualTo("referenceId pay-1 was already used with a different request body");
      assertThat(balance(first.org(), "KSH")).containsExactly(first.balance());
      assertThat(journal(first.org())).isEqualTo(first.journal());
    }

    @Test
    void aReplayIsAnsweredEvenWhenTheBalanceNoLongerCoversItsAmount() {
      Paid first = paid("pay-all", 1000);

      TestHttp.Response replay = http().postJson(SEND_MONEY, body("pay-all", 1000), as(first.org()));

      assertThat(replay.status()).isEqualTo(201);
      assertThat(replay.json().get("data").get("requestId").stringValue()).isEqualTo(first.requestId());
    }

    @Test
    void aRepeatThatLosesTheRaceForTheInsertGivesBackTheReservationItMadeMeanwhile() {
      Paid first = paid("pay-race", 100);
      // the repeat's first look misses the earlier payout, as when both requests look before either has inserted
      AtomicBoolean missedOnce = new AtomicBoolean();
      PayoutStore racing = new PayoutStore(mongo, outboxes, outboxEvents) {
        @Override
        public Optional<Earlier<Payout>> findByReference(OrganisationId organisationId, PayoutKind kind,
            String referenceId) {
          return missedOnce.compareAndSet(false, true) ? Optional.empty()
              : super.findByReference(organisationId, kind, referenceId);
        }
      };
      Payouts payouts = new Payouts(racing, ids, ledger, clock);

      Creation<Payout> creation = payouts.accept(OrganisationId.of(first.org()), request("pay-race", 100),
          origin("pay-race", 100));

      assertThat(missedOnce).isTrue();
      assertThat(creation).isInstanceOfSatisfying(Creation.Replayed.class,
          replayed -> assertThat(((Payout) replayed.record()).requestId().toString()).isEqualTo(first.requestId()));
      assertThat(balance(first.org(), "KSH")).containsExactly(first.balance());
      List<LedgerEntry> added = journal(first.org()).stream().filter(e -> !first.journal().contains(e)).toList();
      assertThat(added).extracting(LedgerEntry::kind).containsExactly(MovementKind.RESERVE, MovementKind.RELEASE);
      assertThat(added).extracting(LedgerEntry::requestId).doesNotContain(first.requestId())
          .containsOnly(added.get(0).requestId());
    }
  }

  @Nested
  class FailedInserts {

    @Test
    void keepTheReservationOfAPayoutWhoseInsertWasAppliedBeforeItFailed() {
      String org = newOrganisation();
      PayoutStore appliesThenTimesOut = new PayoutStore(mongo, outboxes, outboxEvents) {
        @Override
        public Insert insert(Payout payout, Origin origin) {
          super.insert(payout, origin);
          throw new MongoSocketReadTimeoutException("timed out after the write", new ServerAddress(), null);
        }
      };
      Payouts payouts = new Payouts(appliesThenTimesOut, ids, ledger, clock);

      assertThatThrownBy(() -> payouts.accept(OrganisationId.of(org), request("applied", 250), origin("applied", 250)))
          .isInstanceOf(MongoSocketReadTimeoutException.class);

      // the sandbox rail pays the stored payout: it settles against its reservation, so the money left once
      await(() -> balance(org, "KSH")[1].signum() == 0
          && balance(org, "KSH")[0].compareTo(new BigDecimal("750")) == 0);
      assertThat(balance(org, "KSH")).containsExactly(new BigDecimal("750"), BigDecimal.ZERO);
    }

    @Test
    void releaseTheReservationAtOnceWhenThePayoutIsKnownToBeAbsent() {
      String org = newOrganisation();
      PayoutStore failsBeforeWriting = new PayoutStore(mongo, outboxes, outboxEvents) {
        @Override
        public Insert insert(Payout payout, Origin origin) {
          throw new MongoSocketReadTimeoutException("timed out before the write", new ServerAddress(), null);
        }
      };
      Payouts payouts = new Payouts(failsBeforeWriting, ids, ledger, clock);

      assertThatThrownBy(() -> payouts.accept(OrganisationId.of(org), request("absent", 250), origin("absent", 250)))
          .isInstanceOf(MongoSocketReadTimeoutException.class);

      assertThat(balance(org, "KSH")).containsExactly(new BigDecimal("1000"), BigDecimal.ZERO);
    }
  }
}
