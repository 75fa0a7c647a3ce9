package dev.lipa.payouts.payout.rail.daraja;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.lease.Leases;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.daraja.simulator.DarajaSimulator;
import dev.lipa.payouts.money.Currency;
import dev.lipa.rails.daraja.credential.SecurityCredentials;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The funds reconciliation of a live payouts-service against the Daraja simulator's Account Balance, in
 * {@link LiveDarajaIntegrationTest}'s context: each test registers shortcodes of its own with the simulator, holding
 * what it chooses, and makes them the only reconciled ones; what Daraja posts to a ResultURL is delivered by the test,
 * as Daraja would.
 */
class BalanceReconciliationIntegrationTests extends LiveDarajaIntegrationTest {

  private static final String RECONCILIATIONS = "/admin/v1/daraja/balance-reconciliations";
  private static final String ACCOUNT_BALANCE = "/mpesa/accountbalance/v1/query";
  private static final AtomicInteger NUMBERS = new AtomicInteger(700100);

  @Autowired
  BalanceReconciliations reconciliations;

  @Autowired
  DarajaPayoutsProperties properties;

  @Autowired
  Leases leases;

  /** What the ledger owes now: every merchant's available and reserved KSH. */
  private BigDecimal owed() {
    return ledger.liability(Currency.KSH).total();
  }

  /**
   * Shortcodes of the simulator holding these amounts in their utility accounts, configured here with no product,
   * and the only shortcodes the reconciliation asks (every other one of the context is taken off it).
   */
  private List<String> reconcileOnly(BigDecimal... holdings) {
    for (JsonNode s : http().get(SHORTCODES, OPERATOR).json().get("data")) {
      if (s.get("reconciled").asBoolean()) {
        assertThat(put(s.get("shortcode").stringValue(), "{\"reconciled\":false}").status()).isEqualTo(200);
      }
    }
    List<String> numbers = new ArrayList<>();
    for (BigDecimal holding : holdings) {
      String number = String.valueOf(NUMBERS.incrementAndGet());
      daraja.registerShortcode(number, "unused-passkey", holding);
      TestHttp.Response created = put(number, shortcode(DarajaSimulator.CONSUMER_SECRET, credential(), "[]"));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      assertThat(created.json().get("data").get("reconciled").asBoolean()).isTrue();
      numbers.add(number);
    }
    return numbers;
  }

  private JsonNode start() {
    TestHttp.Response started = http().postJson(RECONCILIATIONS, "", OPERATOR);
    assertThat(started.status()).as(started.body()).isEqualTo(202);
    return started.json().get("data");
  }

  private JsonNode report(String id) {
    TestHttp.Response response = http().get(RECONCILIATIONS + "/" + id, OPERATOR);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json().get("data");
  }

  private static JsonNode question(JsonNode report, String shortcode) {
    for (JsonNode q : report.get("shortcodes")) {
      if (q.get("shortcode").stringValue().equals(shortcode)) {
        return q;
      }
    }
    throw new AssertionError("no question to " + shortcode + " in " + report);
  }

  /** Delivers what Daraja posted in answer to the question to {@code shortcode}, from Daraja's address. */
  private TestHttp.Response deliverAnswer(JsonNode report, String shortcode) {
    Posted answer = resultNaming(question(report, shortcode).get("conversationId").stringValue());
    return http().postJson(answer.path(), answer.body(), FROM_DARAJA);
  }

  private static long questionsTo(String shortcode) {
    return daraja.received(ACCOUNT_BALANCE).stream()
        .filter(r -> JSON.readTree(r.body()).path("PartyA").asString().equals(shortcode)).count();
  }

  @Nested
  class Reconciling {

    @Test
    void matchesADayWhenTheShortcodesHoldWhatTheLedgerOwes() {
      String organisation = UUID.randomUUID().toString();
      ledger.credit(OrganisationId.of(organisation), Currency.KSH, "reconciliation-" + organisation,
          new BigDecimal("10000"));
      BigDecimal owed = owed();
      List<String> shortcodes = reconcileOnly(owed.subtract(new BigDecimal("1000")), new BigDecimal("1000"));

      JsonNode started = start();
      assertThat(started.get("status").stringValue()).isEqualTo("OPEN");
      assertThat(question(started, shortcodes.get(0)).get("state").stringValue()).isEqualTo("ASKED");
      assertThat(deliverAnswer(started, shortcodes.get(0)).status()).isEqualTo(200);
      assertThat(deliverAnswer(started, shortcodes.get(1)).status()).isEqualTo(200);
      JsonNode report = report(started.get("id").stringValue());

      assertThat(report.get("status").stringValue()).isEqualTo("MATCHED");
      assertThat(report.get("ledgerTotal").decimalValue()).isEqualByComparingTo(owed);
      assertThat(report.get("platformFunds").decimalValue()).isZero();
      assertThat(report.get("shortcodesTotal").decimalValue()).isEqualByComparingTo(owed);
      assertThat(report.get("difference").decimalValue()).isEqualByComparingTo("0");
      assertThat(http().get(RECONCILIATIONS + "/" + started.get("id").stringValue(), OPERATOR).body())
          .as("amounts as exact decimals").contains("\"difference\":0.00,");
      JsonNode accounts = question(report, shortcodes.get(1)).get("accounts");
      assertThat(accounts).hasSize(5);
      assertThat(accounts.valueStream().filter(a -> !a.get("compared").asBoolean())
          .map(a -> a.get("name").stringValue())).containsExactly("Charges Paid Account");
      assertThat(questionsTo(shortcodes.get(0))).isEqualTo(1);
      JsonNode sent = JSON.readTree(daraja.received(ACCOUNT_BALANCE).getFirst().body());
      assertThat(sent.get("CommandID").asString()).isEqualTo("AccountBalance");
      assertThat(sent.get("ResultURL").asString()).startsWith(PLATFORM + "/daraja/v1/results/");
    }

    @Test
    void reportsADifferenceToOperatorsAndInTheMetrics() {
      String shortcode = reconcileOnly(owed().add(new BigDecimal("250.50"))).getFirst();

      JsonNode started = start();
      deliverAnswer(started, shortcode);
      JsonNode report = report(started.get("id").stringValue());

      assertThat(report.get("status").stringValue()).isEqualTo("DIFFERENT");
      assertThat(report.get("difference").decimalValue()).isEqualByComparingTo("250.50");
      assertThat(http().get(RECONCILIATIONS + "?limit=1", OPERATOR).json().get("data").get(0).get("id").stringValue())
          .isEqualTo(started.get("id").stringValue());
      String metrics = http().get("/actuator/prometheus", Map.of()).body();
      assertThat(metrics).containsPattern("lipa_reconciliation_latest\\{[^}]*status=\"different\"[^}]*} 1\\.0")
          .containsPattern("lipa_reconciliation_latest\\{[^}]*status=\"matched\"[^}]*} 0\\.0")
          .containsPattern("lipa_reconciliation_difference\\{[^}]*currency=\"KSH\"[^}]*} 250\\.5")
          .contains("lipa_reconciliation_age_seconds");
    }

    @Test
    void isIncompleteWhenAShortcodeNeverAnswersAndStaysSoWhenItsAnswerComesLate() {
      List<String> shortcodes = reconcileOnly(owed(), BigDecimal.ZERO);
      JsonNode started = start();
      deliverAnswer(started, shortcodes.get(0));
      Instant askedAt = Instant.parse(started.get("askedAt").stringValue());

      reconciliations.expireOverdue(askedAt.plus(properties.reconciliation().answerWithin()).plusSeconds(1));
      JsonNode report = report(started.get("id").stringValue());
      TestHttp.Response late = deliverAnswer(started, shortcodes.get(1));

      assertThat(report.get("status").stringValue()).isEqualTo("INCOMPLETE");
      assertThat(report.get("difference").isNull()).isTrue();
      assertThat(question(report, shortcodes.get(0)).get("state").stringValue()).isEqualTo("ANSWERED");
      assertThat(question(report, shortcodes.get(1)).get("state").stringValue()).isEqualTo("UNANSWERED");
      assertThat(late.status()).isEqualTo(200);
      assertThat(report(started.get("id").stringValue())).isEqualTo(report);
    }

    @Test
    void isIncompleteAtOnceWhenDarajaAnswersAFailure() {
      String shortcode = reconcileOnly(owed()).getFirst();
      assertThat(put(shortcode, "{\"securityCredential\":\"" + credentialOf("not-the-password") + "\"}").status())
          .isEqualTo(200);

      JsonNode started = start();
      deliverAnswer(started, shortcode);
      JsonNode report = report(started.get("id").stringValue());

      assertThat(report.get("status").stringValue()).isEqualTo("INCOMPLETE");
      assertThat(question(report, shortcode).get("state").stringValue()).isEqualTo("FAILED");
      assertThat(question(report, shortcode).get("failure").stringValue()).contains("2001");
    }
  }

  @Nested
  class Answers {

    @Test
    void refusesForgedAndUnknownAnswersAndTakesARepeatOnce() {
      List<String> shortcodes = reconcileOnly(owed(), BigDecimal.ZERO);
      JsonNode started = start();
      String conversation = question(started, shortcodes.get(0)).get("conversationId").stringValue();
      Posted answer = resultNaming(conversation);
      Posted otherShortcodes = resultNaming(question(started, shortcodes.get(1)).get("conversationId").stringValue());

      TestHttp.Response elsewhere = http().postJson(answer.path(), answer.body(),
          Map.of("X-Forwarded-For", "203.0.113.9", "Content-Type", "application/json"));
      TestHttp.Response atAnotherShortcode = http().postJson(otherShortcodes.path(), answer.body(), FROM_DARAJA);
      TestHttp.Response unknown = http().postJson(answer.path(), answer.body().replace(conversation,
          "AG_20200206_00005e091a8ec6b9eac5"), FROM_DARAJA);
      TestHttp.Response notDarajas = http().postJson(answer.path(), answer.body().replace("|KES|", "|K$S|"),
          FROM_DARAJA);
      JsonNode untouched = report(started.get("id").stringValue());
      TestHttp.Response first = http().postJson(answer.path(), answer.body(), FROM_DARAJA);
      TestHttp.Response again = http().postJson(answer.path(), answer.body(), FROM_DARAJA);
      TestHttp.Response saysOtherwise = http().postJson(answer.path(), answer.body().replace("Working Account|KES|0.00",
          "Working Account|KES|900000.00"), FROM_DARAJA);

      assertThat(elsewhere.status()).isEqualTo(403);
      assertThat(atAnotherShortcode.status()).isEqualTo(404);
      assertThat(unknown.status()).isEqualTo(404);
      assertThat(notDarajas.status()).isEqualTo(400);
      assertThat(question(untouched, shortcodes.get(0)).get("state").stringValue()).isEqualTo("ASKED");
      assertThat(first.status()).isEqualTo(200);
      assertThat(again.status()).isEqualTo(200);
      assertThat(saysOtherwise.status()).isEqualTo(400);
      JsonNode answered = question(report(started.get("id").stringValue()), shortcodes.get(0));
      assertThat(answered.get("state").stringValue()).isEqualTo("ANSWERED");
      assertThat(answered.get("funds").decimalValue()).isEqualByComparingTo(owed());
    }
  }

  @Nested
  class DailyRun {

    @Test
    void asksEachShortcodeOnceADayHoweverManyReplicasRunTheJob() {
      String shortcode = reconcileOnly(owed()).getFirst();
      // a day of its own, in the past: the reports of other tests and of the day the tests run are not its
      LocalDate day = LocalDate.of(2001, 1, 1).plusDays(ThreadLocalRandom.current().nextInt(3000));
      DailyReconciliation one = new DailyReconciliation(reconciliations, properties.reconciliation(), leases);
      DailyReconciliation two = new DailyReconciliation(reconciliations, properties.reconciliation(), leases);
      try {
        assertThat(one.check(at(day, "02:59"))).as("before 03:00 in Nairobi").isEmpty();
        assertThat(one.check(at(day, "03:00"))).as("from 03:00").isPresent();
        assertThat(two.check(at(day, "03:01"))).as("the other replica, while the lease is held").isEmpty();
        assertThat(one.check(at(day, "03:02"))).as("the holder again, the day done").isEmpty();
        one.close();
        assertThat(two.check(at(day, "03:03"))).as("the other replica, holding the lease now").isEmpty();
      } finally {
        one.close();
        two.close();
      }
      assertThat(questionsTo(shortcode)).isEqualTo(1);
    }

    private static Instant at(LocalDate day, String time) {
      return day.atTime(LocalTime.parse(time)).atZone(BalanceReconciliations.NAIROBI).toInstant();
    }
  }

  @Nested
  class OperatorApi {

    @Test
    void refusesACallerWithoutTheOperatorToken() {
      long reports = http().get(RECONCILIATIONS + "?limit=366", OPERATOR).json().get("data").size();
      Map<String, String> merchant = merchant(UUID.randomUUID().toString());

      assertThat(http().get(RECONCILIATIONS, Map.of()).status()).isEqualTo(401);
      assertThat(http().get(RECONCILIATIONS, merchant).status()).isEqualTo(401);
      assertThat(http().postJson(RECONCILIATIONS, "", merchant).status()).isEqualTo(401);
      assertThat(http().postJson(RECONCILIATIONS, "", Map.of("X-Operator-Token", OPERATOR_TOKEN + "x")).status())
          .isEqualTo(401);
      assertThat(http().get(RECONCILIATIONS + "?limit=366", OPERATOR).json().get("data").size()).isEqualTo(reports);
    }

    @Test
    void answers404ForAnUnknownReportAnd400ForABadLimit() {
      assertThat(http().get(RECONCILIATIONS + "/" + UUID.randomUUID(), OPERATOR).status()).isEqualTo(404);
      assertThat(http().get(RECONCILIATIONS + "/not-an-id", OPERATOR).status()).isEqualTo(404);
      assertThat(http().get(RECONCILIATIONS + "?limit=0", OPERATOR).status()).isEqualTo(400);
      assertThat(http().get(RECONCILIATIONS + "?limit=x", OPERATOR).status()).isEqualTo(400);
    }
  }

  private static String credentialOf(String password) {
    return SecurityCredentials.encrypt(password.toCharArray(), daraja.certificate().certificate());
  }
}
