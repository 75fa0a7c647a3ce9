package dev.lipa.payouts.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.events.EventEnvelope;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.testsupport.SharedInfra;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestKafka;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.time.Duration;
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
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
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
    List<LedgerEntry> entries = store.entries(OrganisationId.of(org), currency);
    BigDecimal available = entries.stream().map(LedgerEntry::availableChange).reduce(BigDecimal.ZERO, BigDecimal::add);
    BigDecimal reserved = entries.stream().map(LedgerEntry::reservedChange).reduce(BigDecimal.ZERO, BigDecimal::add);
    Balance balance = ledger.balance(OrganisationId.of(org), currency);
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
      await(() -> store.entries(OrganisationId.of(org), Currency.KSH).size() == 21);
      assertEntriesAddUp(org, Currency.KSH);
    }
  }

  @Nested
  class Movements {

    @Test
    void settlingOrReleasingAReservationTwiceChangesTheBalanceOnce() {
      String org = newOrganisation();
      RequestId requestId = RequestId.random();
      ledger.reserve(OrganisationId.of(org), Currency.KSH, requestId, new BigDecimal("300"));
      ledger.reserve(OrganisationId.of(org), Currency.KSH, requestId, new BigDecimal("300"));

      assertThat(ledger.balance(OrganisationId.of(org), Currency.KSH)).isEqualTo(
          new Balance(Currency.KSH, new BigDecimal("700"), new BigDecimal("300")));
      assertThat(ledger.release(OrganisationId.of(org), Currency.KSH, requestId, new BigDecimal("300"))).isTrue();
      assertThat(ledger.settle(OrganisationId.of(org), Currency.KSH, requestId, new BigDecimal("300"))).isFalse();
      assertThat(ledger.release(OrganisationId.of(org), Currency.KSH, requestId, new BigDecimal("300"))).isFalse();
      assertThat(ledger.balance(OrganisationId.of(org), Currency.KSH)).isEqualTo(
          new Balance(Currency.KSH, new BigDecimal("1000"), BigDecimal.ZERO));
      assertEntriesAddUp(org, Currency.KSH);
      assertThat(store.entries(OrganisationId.of(org), Currency.KSH)).extracting(LedgerEntry::id)
          .containsExactly(org + ":KSH:opening", requestId + ":reserve", requestId + ":release");
    }

    @Test
    void releasesAReservationThatNoPayoutOwnsAfterTheOrphanDelay() {
      String org = newOrganisation();
      // as if a crash lost the insert
      ledger.reserve(OrganisationId.of(org), Currency.KSH, RequestId.random(), new BigDecimal("100"));

      assertThat(ledger.balance(OrganisationId.of(org), Currency.KSH).reserved()).isEqualByComparingTo("100");
      await(() -> ledger.balance(OrganisationId.of(org), Currency.KSH).reserved().signum() == 0);
      assertThat(ledger.balance(OrganisationId.of(org), Currency.KSH).available()).isEqualByComparingTo("1000");
      assertEntriesAddUp(org, Currency.KSH);
    }

    @Test
    void aReservationTheAvailableBalanceDoesNotCoverReservesNothing() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(SEND_MONEY, kenyan("254712345678", 1001), as(org));

      assertThat(response.status()).isEqualTo(422);
      assertThat(response.json().get("message").stringValue()).isEqualTo("insufficient balance: available 1000 KSH");
      assertThat(ledger.balance(OrganisationId.of(org), Currency.KSH)).isEqualTo(
          new Balance(Currency.KSH, new BigDecimal("1000"), BigDecimal.ZERO));
      assertThat(store.entries(OrganisationId.of(org), Currency.KSH)).hasSize(1);
      assertThat(database.getCollection("payouts").countDocuments(new org.bson.Document("organisationId", org)))
          .isZero();
    }

    @Test
    void showsEveryCurrencyWithItsOpeningFloatUsdWithoutOneAndTopsUpInTheSandbox() {
      String org = newOrganisation();
      topUp(org, "UGX", 500);

      TestHttp.Response response = http().get("/api/sandbox/v1/balances", as(org));

      assertThat(response.status()).isEqualTo(200);
      assertThat(response.json().get("data").toString()).isEqualTo(
          "[{\"currency\":\"KSH\",\"available\":1000,\"reserved\":0},"
              + "{\"currency\":\"TZS\",\"available\":50000,\"reserved\":0},"
              + "{\"currency\":\"UGX\",\"available\":50500,\"reserved\":0},"
              + "{\"currency\":\"USD\",\"available\":0,\"reserved\":0}]");
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

      RecordMetadata last = null;
      try (KafkaProducer<String, String> producer = producer()) {
        for (EventEnvelope event : List.of(succeeded, succeeded, bank, failed, bank)) {
          last = producer.send(new ProducerRecord<>(Topics.COLLECTIONS, requestId, json.writeValueAsString(event)))
              .get();
        }
      }

      // the ledger's consumer is past every one of them (same key, one partition): the balance is its final word
      TestKafka.awaitConsumed(CollectionCredits.GROUP, last, Duration.ofSeconds(20));
      assertThat(ledger.balance(OrganisationId.of(org), Currency.KSH).available()).isEqualByComparingTo("1325");
      assertEntriesAddUp(org, Currency.KSH);
    }

  }

  @Nested
  class BatchedCollectionCredits {

    @Test
    void aBatchOfManySuccessfulStkPushesCreditsTheirExactSumWithOneJournalEntryEach() {
      String org = newOrganisation();
      List<EventEnvelope> events = new ArrayList<>();
      BigDecimal sum = BigDecimal.ZERO;
      for (int i = 0; i < 200; i++) {
        BigDecimal amount = new BigDecimal(i + 1).add(new BigDecimal("0.01").multiply(new BigDecimal(i % 7)));
        events.add(stkSucceeded(org, UUID.randomUUID().toString(), amount, "KSH"));
        sum = sum.add(amount);
      }

      RecordMetadata last = send(org, events);

      BigDecimal expected = new BigDecimal("1000").add(sum);
      awaitSettled(last, org, Currency.KSH, expected);
      assertThat(journalIds(org, Currency.KSH)).hasSize(201).contains(org + ":KSH:opening")
          .containsAll(events.stream().map(e -> "stk.succeeded:" + e.data().get("requestId") + ":credit").toList());
      assertEntriesAddUp(org, Currency.KSH);
    }

    @Test
    void theSameBatchDeliveredTwiceCreditsOnce() {
      String org = newOrganisation();
      List<EventEnvelope> events = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        events.add(stkSucceeded(org, UUID.randomUUID().toString(), new BigDecimal("10.50"), "KSH"));
      }
      List<EventEnvelope> twice = new ArrayList<>(events);
      twice.addAll(events);

      RecordMetadata last = send(org, twice);

      awaitSettled(last, org, Currency.KSH, new BigDecimal("1525"));
      assertThat(journalIds(org, Currency.KSH)).hasSize(51);
      assertEntriesAddUp(org, Currency.KSH);
    }

    @Test
    void aBatchThatMixesARedeliveredEventWithNewOnesCreditsTheNewOnesOnce() {
      String org = newOrganisation();
      EventEnvelope old = stkSucceeded(org, UUID.randomUUID().toString(), new BigDecimal("99.99"), "KSH");
      awaitSettled(send(org, List.of(old)), org, Currency.KSH, new BigDecimal("1099.99"));
      List<EventEnvelope> mixed = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        mixed.add(stkSucceeded(org, UUID.randomUUID().toString(), new BigDecimal("5.05"), "KSH"));
        if (i == 10) {
          mixed.add(old);
        }
      }

      RecordMetadata last = send(org, mixed);

      awaitSettled(last, org, Currency.KSH, new BigDecimal("1200.99"));
      assertThat(journalIds(org, Currency.KSH)).hasSize(22);
      assertEntriesAddUp(org, Currency.KSH);
    }

    @Test
    void creditsForTwoOrganisationsAndCurrenciesInOneBatchLandOnTheirOwnAccounts() {
      String first = newOrganisation();
      String second = newOrganisation();
      List<EventEnvelope> events = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        events.add(stkSucceeded(first, UUID.randomUUID().toString(), new BigDecimal("1.10"), "KSH"));
        events.add(stkSucceeded(first, UUID.randomUUID().toString(), new BigDecimal("200"), "TZS"));
        events.add(stkSucceeded(second, UUID.randomUUID().toString(), new BigDecimal("3.33"), "KSH"));
      }

      RecordMetadata last = send(first, events);

      awaitSettled(last, first, Currency.KSH, new BigDecimal("1033"));
      awaitSettled(last, first, Currency.TZS, new BigDecimal("56000"));
      awaitSettled(last, second, Currency.KSH, new BigDecimal("1099.9"));
      assertThat(journalIds(first, Currency.KSH)).hasSize(31);
      assertThat(journalIds(first, Currency.TZS)).hasSize(31);
      assertThat(journalIds(second, Currency.KSH)).hasSize(31);
      assertThat(ledger.balance(OrganisationId.of(second), Currency.TZS).available()).isEqualByComparingTo("50000");
      for (String org : List.of(first, second)) {
        for (Currency currency : List.of(Currency.KSH, Currency.TZS)) {
          assertEntriesAddUp(org, currency);
        }
      }
    }

    @Test
    void aGroupThatMeetsARepeatIsAppliedOneCreditAtATime() {
      String org = newOrganisation();
      List<Movement> first = credits(org, Currency.KSH, 10, "2.50");
      List<Movement> second = new ArrayList<>(credits(org, Currency.KSH, 5, "1.25"));
      second.add(2, first.get(3));
      second.add(first.get(7));

      assertThat(ledger.creditAll(first)).containsExactlyElementsOf(first);
      assertThat(ledger.creditAll(first)).isEmpty();
      assertThat(ledger.creditAll(second)).hasSize(5).doesNotContain(first.get(3), first.get(7));

      assertThat(ledger.balance(OrganisationId.of(org), Currency.KSH).available()).isEqualByComparingTo("1031.25");
      assertThat(journalIds(org, Currency.KSH)).hasSize(16);
      assertEntriesAddUp(org, Currency.KSH);
    }

    @Test
    void aGroupWithACreditACrashLeftPendingRefusesThatOneAndAppliesTheOthers() {
      String org = newOrganisation();
      Movement crashed = credits(org, Currency.KSH, 1, "40").getFirst();
      ledger.creditAll(List.of(crashed));
      // as if the service died after the account update, before the copy: the entry is pending, not in the journal
      Document entry = database.getCollection(LedgerStore.ENTRIES).findOneAndDelete(new Document("_id", crashed.id()));
      database.getCollection(LedgerStore.ACCOUNTS).updateOne(new Document("_id", org + ":KSH"),
          new Document("$push", new Document("pending", entry)).append("$set",
              new Document("pendingSince", new java.util.Date())));
      List<Movement> redelivered = new ArrayList<>(credits(org, Currency.KSH, 4, "0.25"));
      redelivered.add(1, crashed);

      assertThat(ledger.creditAll(redelivered)).hasSize(4).doesNotContain(crashed);

      assertThat(ledger.balance(OrganisationId.of(org), Currency.KSH).available()).isEqualByComparingTo("1041");
      assertThat(journalIds(org, Currency.KSH)).hasSize(6).contains(crashed.id());
      assertThat(account(org, Currency.KSH).getList("pending", Document.class)).isEmpty();
      assertThat(account(org, Currency.KSH).get("pendingSince")).isNull();
      assertEntriesAddUp(org, Currency.KSH);
    }

    @Test
    void aRepeatOlderThanTheRecentWindowIsFoundInTheJournal() {
      String org = newOrganisation();
      List<Movement> many = credits(org, Currency.UGX, LedgerAccounts.RECENT + 44, "100");
      Movement fresh = credits(org, Currency.UGX, 1, "7").getFirst();

      assertThat(ledger.creditAll(many)).hasSize(LedgerAccounts.RECENT + 44);
      assertThat(ledger.creditAll(List.of(many.getFirst(), fresh, many.getFirst()))).containsExactly(fresh);

      assertThat(ledger.balance(OrganisationId.of(org), Currency.UGX).available()).isEqualByComparingTo("80007");
      assertThat(journalIds(org, Currency.UGX)).hasSize(LedgerAccounts.RECENT + 46);
      assertThat(account(org, Currency.UGX).getList("recent", String.class)).hasSize(LedgerAccounts.RECENT);
      assertEntriesAddUp(org, Currency.UGX);
    }

    @Test
    void aFirstGroupOpensTheAccountWithItsFloat() {
      String org = newOrganisation();

      assertThat(ledger.creditAll(credits(org, Currency.TZS, 3, "0.5"))).hasSize(3);

      assertThat(ledger.balance(OrganisationId.of(org), Currency.TZS).available()).isEqualByComparingTo("50001.5");
      assertThat(journalIds(org, Currency.TZS)).hasSize(4);
      assertEntriesAddUp(org, Currency.TZS);
    }

    private List<Movement> credits(String org, Currency currency, int count, String amount) {
      List<Movement> credits = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        credits.add(new Movement(OrganisationId.of(org), currency, MovementKind.CREDIT,
            "stk.succeeded:" + UUID.randomUUID(), new BigDecimal(amount)));
      }
      return credits;
    }

    private EventEnvelope stkSucceeded(String org, String requestId, BigDecimal amount, String currency) {
      return new EventEnvelope(UUID.randomUUID().toString(), "stk.succeeded", 1, Instant.now(), org,
          Map.of("requestId", requestId, "amount", amount, "currency", currency, "status", "SUCCESS"));
    }

    /**
     * Sends every event under one key, so they share a partition and arrive in order (as fast as they go out); returns
     * where the last one went.
     */
    private RecordMetadata send(String key, List<EventEnvelope> events) {
      try (KafkaProducer<String, String> producer = producer()) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (EventEnvelope event : events) {
          sent.add(producer.send(new ProducerRecord<>(Topics.COLLECTIONS, key, json.writeValueAsString(event))));
        }
        RecordMetadata last = null;
        for (Future<RecordMetadata> done : sent) {
          last = done.get();
        }
        return last;
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }

    /**
     * Waits until the ledger's consumer is past the last record sent (so past all of them: one key, one partition),
     * then checks the balance and that nothing is left pending: a credit applied twice, however late, shows here.
     */
    private void awaitSettled(RecordMetadata last, String org, Currency currency, BigDecimal expected) {
      TestKafka.awaitConsumed(CollectionCredits.GROUP, last, Duration.ofSeconds(20));
      assertThat(ledger.balance(OrganisationId.of(org), currency).available()).isEqualByComparingTo(expected);
      assertThat(account(org, currency).getList("pending", Document.class)).isEmpty();
    }
  }

  /** The ids of the account's entries that reached the journal collection itself (not those still pending). */
  private List<String> journalIds(String org, Currency currency) {
    return database.getCollection(LedgerStore.ENTRIES)
        .find(new Document("organisationId", org).append("currency", currency.name()))
        .map(d -> d.getString("_id")).into(new ArrayList<>());
  }

  private Document account(String org, Currency currency) {
    return database.getCollection(LedgerStore.ACCOUNTS).find(new Document("_id", org + ":" + currency.name()))
        .first();
  }

  private static KafkaProducer<String, String> producer() {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfra.kafkaBootstrapServers());
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    // a little linger: the events leave in a few large produce requests, so the listener sees them in large polls
    props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    return new KafkaProducer<>(props);
  }
}
