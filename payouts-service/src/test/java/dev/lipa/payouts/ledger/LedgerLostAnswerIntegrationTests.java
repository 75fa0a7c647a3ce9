package dev.lipa.payouts.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.LostAnswerProxy;
import dev.lipa.common.testsupport.LostAnswerProxyInitializer;
import dev.lipa.common.testsupport.TestKafka;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.json.JsonMapper;

/**
 * A collection credit whose update reached the store and was applied, but whose answer was lost
 * ({@link LostAnswerProxy}): the ledger's listener sees a store failure, retries the record, and the credit is applied
 * once (the account's guarded update refuses a movement it holds already). The embedded store is a standalone
 * server, so the driver's own retryable writes do not apply here: the listener's retry is what is proven.
 */
@ContextConfiguration(initializers = LostAnswerProxyInitializer.class, inheritInitializers = false)
// a second instance of the service (this context) must not keep running beside the module's shared one: the two would
// split the consumer groups and each hold acknowledgements of its outbox the other's writes do not know about
@DirtiesContext
class LedgerLostAnswerIntegrationTests extends PayoutsIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private final LostAnswerProxy proxy = LostAnswerProxy.shared();

  @Autowired
  Ledger ledger;
  @Autowired
  LedgerStore store;
  @Autowired
  JsonMapper json;

  @AfterEach
  void disarm() {
    proxy.disarm();
  }

  private String stkSucceeded(String org, String requestId, int amount) {
    return json.writeValueAsString(new EventEnvelope(UUID.randomUUID().toString(), "stk.succeeded", 1, Instant.now(),
        org, Map.of("requestId", requestId, "amount", amount, "currency", "KSH", "status", "SUCCESS")));
  }

  private BigDecimal available(String org) {
    return ledger.balance(OrganisationId.of(org), Currency.KSH).available();
  }

  @Test
  void aCreditWhoseAnswerWasLostIsAppliedOnceWhenTheListenerRetriesIt() {
    String org = newOrganisation();
    String first = UUID.randomUUID().toString();
    TestKafka.publish(Topics.COLLECTIONS, org, stkSucceeded(org, first, 10));
    Awaitility.await().atMost(PATIENCE).until(() -> available(org).compareTo(new BigDecimal("1010")) == 0);

    String lost = UUID.randomUUID().toString();
    int lostBefore = proxy.lostAnswers();
    proxy.loseTheAnswerTo(LostAnswerProxy.command("findAndModify", LedgerAccounts.COLLECTION)
        .and(LostAnswerProxy.containing("stk.succeeded:" + lost)));
    TestKafka.publish(Topics.COLLECTIONS, org, stkSucceeded(org, lost, 20));

    Awaitility.await().atMost(PATIENCE).until(() -> proxy.lostAnswers() == lostBefore + 1);
    // a later credit on the same partition (one key for all three) is applied only once the lost one was retried
    String after = UUID.randomUUID().toString();
    TestKafka.publish(Topics.COLLECTIONS, org, stkSucceeded(org, after, 5));
    Awaitility.await().atMost(PATIENCE).until(() -> available(org).compareTo(new BigDecimal("1035")) >= 0);

    assertThat(available(org)).isEqualByComparingTo("1035");
    assertThat(store.entries(OrganisationId.of(org), Currency.KSH).stream()
        .filter(e -> e.id().startsWith("stk.succeeded:" + lost)).count()).isEqualTo(1);
  }
}
