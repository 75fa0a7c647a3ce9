package dev.lipa.payouts.payout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.ServerAddress;
import com.mongodb.client.MongoDatabase;
import dev.lipa.common.ids.RecordIds;
import dev.lipa.common.once.Insert;
import dev.lipa.common.once.Origin;
import dev.lipa.common.outbox.Outboxes;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.payouts.sendmoney.SendMoneyRequest;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

/**
 * An insert that fails is not assumed to have written nothing: a store that applied the payout and then timed out
 * leaves a payout that will be paid, so its reservation must stay (else it is paid without being debited).
 */
class PayoutAcceptanceFailureIntegrationTests extends PayoutsIntegrationTest {

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
  Clock clock;

  @Test
  void keepsTheReservationOfAPayoutWhoseInsertWasAppliedBeforeItFailed() {
    String org = newOrganisation();
    PayoutStore appliesThenTimesOut = new PayoutStore(mongo, outboxes, outboxEvents) {
      @Override
      public Insert insert(Payout payout, Origin origin) {
        super.insert(payout, origin);
        throw new MongoSocketReadTimeoutException("timed out after the write", new ServerAddress(), null);
      }
    };
    Payouts payouts = new Payouts(appliesThenTimesOut, ids, ledger, clock);

    assertThatThrownBy(() -> payouts.accept(org, request(250), new Origin("f", null)))
        .isInstanceOf(MongoSocketReadTimeoutException.class);

    // the sandbox rail pays the stored payout: it settles against its reservation, so the money left once
    await(() -> balance(org, "KSH")[1].signum() == 0 && balance(org, "KSH")[0].compareTo(new BigDecimal("750")) == 0);
    assertThat(balance(org, "KSH")).containsExactly(new BigDecimal("750"), BigDecimal.ZERO);
  }

  @Test
  void releasesTheReservationAtOnceWhenThePayoutIsKnownToBeAbsent() {
    String org = newOrganisation();
    PayoutStore failsBeforeWriting = new PayoutStore(mongo, outboxes, outboxEvents) {
      @Override
      public Insert insert(Payout payout, Origin origin) {
        throw new MongoSocketReadTimeoutException("timed out before the write", new ServerAddress(), null);
      }
    };
    Payouts payouts = new Payouts(failsBeforeWriting, ids, ledger, clock);

    assertThatThrownBy(() -> payouts.accept(org, request(250), new Origin("f", null)))
        .isInstanceOf(MongoSocketReadTimeoutException.class);

    assertThat(balance(org, "KSH")).containsExactly(new BigDecimal("1000"), BigDecimal.ZERO);
  }

  private static PayoutRequest request(int amount) {
    return SendMoneyRequest.from(JSON.readTree("""
        {"phoneNumber":"254712%06d","amount":%d,"remarks":"salary","occasion":"June",
         "callbackUrl":"https://merchant.example/callbacks/b2c"}""".formatted(
        Math.abs(UUID.randomUUID().hashCode()) % 1_000_000, amount)));
  }
}
