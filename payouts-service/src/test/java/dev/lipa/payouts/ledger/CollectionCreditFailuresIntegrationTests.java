package dev.lipa.payouts.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.kafka.DeadLetter;
import dev.lipa.common.kafka.DeadLetterStore;
import dev.lipa.common.testsupport.StoreProxy;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestKafka;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.money.Currency;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ledger's collection credits ({@code payouts-ledger}) when the store fails under them and when a record can never
 * be a credit: no credit is lost, none is counted twice, and the dead letters are the operators' to see and replay.
 */
class CollectionCreditFailuresIntegrationTests extends PayoutsIntegrationTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final String DEAD_LETTERS = "/admin/v1/dead-letters";

  @Autowired
  Ledger ledger;
  @Autowired
  LedgerStore store;
  @Autowired
  DeadLetterStore deadLetters;
  @Autowired
  MeterRegistry meters;
  @Autowired
  JsonMapper json;

  @AfterEach
  void restoreTheStore() {
    StoreProxy.shared().restore();
  }

  private String stkSucceeded(String org, String requestId, Object amount, String currency) {
    return json.writeValueAsString(new EventEnvelope(UUID.randomUUID().toString(), "stk.succeeded", 1, Instant.now(),
        org, Map.of("requestId", requestId, "amount", amount, "currency", currency, "status", "SUCCESS")));
  }

  private static void publish(String key, String... values) {
    TestKafka.publish(Topics.COLLECTIONS, key, values);
  }

  private double retries() {
    Counter counter = meters.find("lipa.kafka.listener.retries").tag("listener", CollectionCredits.GROUP).counter();
    return counter == null ? 0 : counter.count();
  }

  private BigDecimal available(String org) {
    return ledger.balance(OrganisationId.of(org), Currency.KSH).available();
  }

  private long credits(String org) {
    return store.entries(OrganisationId.of(org), Currency.KSH).stream()
        .filter(e -> e.id().startsWith("stk.succeeded:")).count();
  }

  /** The payouts-ledger dead letters whose record mentions {@code marker}, through the operator API. */
  private List<JsonNode> deadLettersMentioning(String marker) {
    TestHttp.Response response = http().get(DEAD_LETTERS + "?listener=" + CollectionCredits.GROUP + "&size=500",
        OPERATOR);
    assertThat(response.status()).isEqualTo(200);
    List<JsonNode> found = new ArrayList<>();
    response.json().path("data").forEach(letter -> {
      if (letter.path("value").asString("").contains(marker)) {
        found.add(letter);
      }
    });
    return found;
  }

  @Nested
  class StoreOutage {

    @Test
    void losesNoCreditWhileTheStoreIsDownAndResumesByItself() {
      String org = newOrganisation();
      List<String> requests = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString(),
          UUID.randomUUID().toString(), UUID.randomUUID().toString());
      double before = retries();

      StoreProxy.shared().cut();
      for (int i = 0; i < requests.size(); i++) {
        publish(requests.get(i), stkSucceeded(org, requests.get(i), 10 * (i + 1), "KSH"));
      }
      Awaitility.await().atMost(PATIENCE).until(() -> retries() >= before + 2);
      StoreProxy.shared().restore();

      Awaitility.await().atMost(PATIENCE).until(() -> available(org).compareTo(new BigDecimal("1100")) == 0);
      String after = UUID.randomUUID().toString();
      publish(after, stkSucceeded(org, after, 5, "KSH"));
      Awaitility.await().atMost(PATIENCE).until(() -> available(org).compareTo(new BigDecimal("1105")) == 0);
      assertThat(credits(org)).isEqualTo(5);
      assertThat(deadLettersMentioning(org)).isEmpty();
    }
  }

  @Nested
  class PoisonRecords {

    @Test
    void deadLettersACreditInAnUnknownCurrencyAndCreditsTheRecordsBehindIt() {
      String org = newOrganisation();
      String key = UUID.randomUUID().toString();
      String unknown = UUID.randomUUID().toString();
      String behind = UUID.randomUUID().toString();

      publish(key, stkSucceeded(org, unknown, 40, "XYZ"), stkSucceeded(org, behind, 60, "KSH"));

      Awaitility.await().atMost(PATIENCE).until(() -> available(org).compareTo(new BigDecimal("1060")) == 0);
      Awaitility.await().atMost(PATIENCE).until(() -> deadLettersMentioning(unknown).size() == 1);
      JsonNode letter = deadLettersMentioning(unknown).getFirst();
      assertThat(letter.path("consumerGroup").asString()).isEqualTo(CollectionCredits.GROUP);
      assertThat(letter.path("topic").asString()).isEqualTo(Topics.COLLECTIONS);
      assertThat(letter.path("key").asString()).isEqualTo(key);
      assertThat(letter.path("deadLetterTopic").asString()).isEqualTo("payments.collections.v1.payouts-ledger.dlt");
      assertThat(letter.path("exceptionMessage").asString()).isEqualTo("unknown currency XYZ");
      assertThat(letter.path("status").asString()).isEqualTo("DEAD");

      // replayed, the ledger still cannot take it: the record stays dead and nothing moves
      TestHttp.Response replay = http().postJson(DEAD_LETTERS + "/" + letter.path("id").asString() + "/replay", "",
          OPERATOR);
      assertThat(replay.status()).isEqualTo(422);
      assertThat(replay.json().path("data").path("attempts").asInt()).isEqualTo(2);
      assertThat(available(org)).isEqualByComparingTo("1060");
    }

    @Test
    void deadLettersACreditWhoseFieldsHaveTheWrongJsonType() {
      String org = newOrganisation();
      String key = UUID.randomUUID().toString();
      String wrong = UUID.randomUUID().toString();
      String value = """
          {"eventId":"%s","type":"stk.succeeded","version":1,"organisationId":"%s",
           "data":{"requestId":"%s","amount":[40],"currency":"KSH"}}""".formatted(UUID.randomUUID(), org, wrong);

      publish(key, value, stkSucceeded(org, UUID.randomUUID().toString(), 15, "KSH"));

      Awaitility.await().atMost(PATIENCE).until(() -> available(org).compareTo(new BigDecimal("1015")) == 0);
      Awaitility.await().atMost(PATIENCE).until(() -> deadLettersMentioning(wrong).size() == 1);
      assertThat(deadLettersMentioning(wrong).getFirst().path("exceptionMessage").asString())
          .startsWith("not a valid stk.succeeded event");
    }

    @Test
    void aReplayCreditsOnceHoweverOftenItIsReplayed() {
      // a valid credit an earlier version of the consumer dead-lettered (say, before it knew the currency)
      String org = newOrganisation();
      String requestId = UUID.randomUUID().toString();
      ConsumerRecord<String, String> original = new ConsumerRecord<>(Topics.COLLECTIONS, 0,
          Long.MAX_VALUE - Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000_000L), requestId,
          stkSucceeded(org, requestId, 250, "KSH"));
      DeadLetter letter = deadLetters.record(CollectionCredits.GROUP, CollectionCredits.GROUP, original,
          "payments.collections.v1.payouts-ledger.dlt", new IllegalArgumentException("unknown currency KSH"),
          Instant.now());

      TestHttp.Response first = http().postJson(DEAD_LETTERS + "/" + letter.id() + "/replay", "", OPERATOR);
      TestHttp.Response second = http().postJson(DEAD_LETTERS + "/" + letter.id() + "/replay", "", OPERATOR);

      assertThat(first.status()).isEqualTo(200);
      assertThat(second.status()).isEqualTo(200);
      assertThat(second.json().path("data").path("status").asString()).isEqualTo("REPLAYED");
      assertThat(second.json().path("data").path("replays").asInt()).isEqualTo(2);
      assertThat(available(org)).isEqualByComparingTo("1250");
      assertThat(credits(org)).isEqualTo(1);
    }
  }
}
