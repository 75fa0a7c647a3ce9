package dev.lipa.payouts.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

class LedgerIntegrationTests extends PayoutsIntegrationTest {

  @Autowired
  LedgerStore store;

  @Autowired
  Ledger ledger;

  @Autowired
  JsonMapper json;

  private void assertEntriesAddUp(String org, Currency currency) {
    List<LedgerEntry> entries = store.entries(org, currency);
    BigDecimal available = entries.stream().map(LedgerEntry::availableChange).reduce(BigDecimal.ZERO, BigDecimal::add);
    BigDecimal reserved = entries.stream().map(LedgerEntry::reservedChange).reduce(BigDecimal.ZERO, BigDecimal::add);
    Balance balance = ledger.balance(org, currency);
    assertThat(available).isEqualByComparingTo(balance.available());
    assertThat(reserved).isEqualByComparingTo(balance.reserved());
  }

  @Nested
  class ConcurrentPayouts {

    @Test
    void fiftyConcurrentPayoutsAgainstABalanceThatCoversTenAcceptExactlyTen() throws Exception {
      String org = newOrganisation(); // opens with the test float: KSH 1000, i.e. ten payouts of 100
      ExecutorService pool = Executors.newFixedThreadPool(50);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<TestHttp.Response>> answers = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        Callable<TestHttp.Response> call = () -> {
          start.await();
          return http().postJson(SEND_MONEY, kenyan("254712345678", 100), as(org));
        };
        answers.add(pool.submit(call));
      }
      start.countDown();
      int accepted = 0;
      int refused = 0;
      for (Future<TestHttp.Response> answer : answers) {
        TestHttp.Response response = answer.get();
        if (response.status() == 201) {
          accepted++;
        } else {
          assertThat(response.status()).isEqualTo(422);
          assertThat(response.json().get("message").stringValue()).startsWith("insufficient balance: available");
          refused++;
        }
      }
      pool.shutdown();

      assertThat(accepted).isEqualTo(10);
      assertThat(refused).isEqualTo(40);
      assertThat(database.getCollection("payouts").countDocuments(new org.bson.Document("organisationId", org)))
          .isEqualTo(10);
      // all ten succeed in the sandbox: every reservation is settled and the account is exactly empty
      await(() -> balance(org, "KSH")[1].signum() == 0);
      BigDecimal[] after = balance(org, "KSH");
      assertThat(after[0]).isEqualByComparingTo("0");
      assertThat(after[1]).isEqualByComparingTo("0");
      await(() -> store.entries(org, Currency.KSH).size() == 21);
      assertEntriesAddUp(org, Currency.KSH);
    }
  }

  @Nested
  class Movements {

    @Test
    void settlingOrReleasingAReservationTwiceChangesTheBalanceOnce() {
      String org = newOrganisation();
      UUID requestId = UUID.randomUUID();
      ledger.reserve(org, Currency.KSH, requestId, new BigDecimal("300"));
      ledger.reserve(org, Currency.KSH, requestId, new BigDecimal("300"));

      assertThat(ledger.balance(org, Currency.KSH)).isEqualTo(
          new Balance(Currency.KSH, new BigDecimal("700"), new BigDecimal("300")));
      assertThat(ledger.release(org, Currency.KSH, requestId, new BigDecimal("300"))).isTrue();
      assertThat(ledger.settle(org, Currency.KSH, requestId, new BigDecimal("300"))).isFalse();
      assertThat(ledger.release(org, Currency.KSH, requestId, new BigDecimal("300"))).isFalse();
      assertThat(ledger.balance(org, Currency.KSH)).isEqualTo(
          new Balance(Currency.KSH, new BigDecimal("1000"), BigDecimal.ZERO));
      assertEntriesAddUp(org, Currency.KSH);
      assertThat(store.entries(org, Currency.KSH)).extracting(LedgerEntry::id)
          .containsExactly(org + ":KSH:opening", requestId + ":reserve", requestId + ":release");
    }

    @Test
    void releasesAReservationThatNoPayoutOwnsAfterTheOrphanDelay() {
      String org = newOrganisation();
      ledger.reserve(org, Currency.KSH, UUID.randomUUID(), new BigDecimal("100")); // as if a crash lost the insert

      assertThat(ledger.balance(org, Currency.KSH).reserved()).isEqualByComparingTo("100");
      await(() -> ledger.balance(org, Currency.KSH).reserved().signum() == 0);
      assertThat(ledger.balance(org, Currency.KSH).available()).isEqualByComparingTo("1000");
      assertEntriesAddUp(org, Currency.KSH);
    }

    @Test
    void aReservationTheAvailableBalanceDoesNotCoverReservesNothing() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(SEND_MONEY, kenyan("254712345678", 1001), as(org));

      assertThat(response.status()).isEqualTo(422);
      assertThat(response.json().get("message").stringValue()).isEqualTo("insufficient balance: available 1000 KSH");
      assertThat(ledger.balance(org, Currency.KSH)).isEqualTo(
          new Balance(Currency.KSH, new BigDecimal("1000"), BigDecimal.ZERO));
      assertThat(store.entries(org, Currency.KSH)).hasSize(1);
      assertThat(database.getCollection("payouts").countDocuments(new org.bson.Document("organisationId", org)))
          .isZero();
    }

    @Test
    void showsEveryCurrencyWithItsOpeningFloatAndTopsUpInTheSandbox() {
      String org = newOrganisation();
      topUp(org, "UGX", 500);

      TestHttp.Response response = http().get("/api/sandbox/v1/balances", as(org));

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("data").toString()).isEqualTo(
          "[{\"currency\":\"KSH\",\"available\":1000,\"reserved\":0},"
              + "{\"currency\":\"TZS\",\"available\":50000,\"reserved\":0},"
              + "{\"currency\":\"UGX\",\"available\":50500,\"reserved\":0}]");
    }

    @Test
    void refusesATopUpWithoutAKnownCurrencyOrAWholePositiveAmount() {
      TestHttp.Response response = http().postJson(BALANCE + "/top-up", "{\"currency\":\"USD\",\"amount\":1.5}",
          as(newOrganisation()));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).containsExactlyInAnyOrder("currency", "amount");
    }
  }

  @Nested
  class CollectionCreditsFromKafka {

    @Test
    void creditsASuccessfulStkPushOnceHoweverOftenItsEventArrives() throws Exception {
      String org = newOrganisation();
      String requestId = UUID.randomUUID().toString();
      EventEnvelope succeeded = new EventEnvelope(UUID.randomUUID().toString(), "stk.succeeded", 1, Instant.now(),
          org, Map.of("requestId", requestId, "amount", 250, "currency", "KSH", "status", "SUCCESS"));
      EventEnvelope bank = new EventEnvelope(UUID.randomUUID().toString(), "bank.collection.received", 1,
          Instant.now(), org, Map.of("amount", "75.00"));
      EventEnvelope failed = new EventEnvelope(UUID.randomUUID().toString(), "stk.failed", 1, Instant.now(), org,
          Map.of("requestId", UUID.randomUUID().toString(), "amount", 999, "currency", "KSH"));

      try (KafkaProducer<String, String> producer = producer()) {
        for (EventEnvelope event : List.of(succeeded, succeeded, bank, failed, bank)) {
          producer.send(new ProducerRecord<>(Topics.COLLECTIONS, requestId, json.writeValueAsString(event))).get();
        }
      }

      await(() -> ledger.balance(org, Currency.KSH).available().compareTo(new BigDecimal("1325")) == 0);
      Thread.sleep(500);
      assertThat(ledger.balance(org, Currency.KSH).available()).isEqualByComparingTo("1325");
      assertEntriesAddUp(org, Currency.KSH);
    }

    private KafkaProducer<String, String> producer() {
      Properties props = new Properties();
      props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
      props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
      props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
      return new KafkaProducer<>(props);
    }
  }
}
