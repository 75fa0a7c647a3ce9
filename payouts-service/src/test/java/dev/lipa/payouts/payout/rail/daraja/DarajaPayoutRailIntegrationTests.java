package dev.lipa.payouts.payout.rail.daraja;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.model.Filters;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.daraja.simulator.DarajaSimulator;
import dev.lipa.payouts.money.Currency;
import dev.lipa.rails.daraja.credential.Fingerprints;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.Document;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The Daraja rail of a live payouts-service against the Daraja simulator over real sockets
 * ({@link LiveDarajaIntegrationTest}'s context): the operator's B2C/B2B shortcodes, and payouts accepted, refused,
 * UNKNOWN (never resent, asked about by Transaction Status) and under a spike arrest.
 */
class DarajaPayoutRailIntegrationTests extends LiveDarajaIntegrationTest {

  /** The merchant paths (the live stack's own family once the stack serves it). */
  private static final String SEND_MONEY = "/api/v1/send-money";
  private static final String TILL = "/api/v1/till";
  private static final String PAYBILL = "/api/v1/paybill";
  private static final String B2C = "/mpesa/b2c/v3/paymentrequest";
  private static final String B2B = "/mpesa/b2b/v1/paymentrequest";
  private static final String STATUS = "/mpesa/transactionstatus/v1/query";
  private static final AtomicInteger PHONES = new AtomicInteger(200);

  /** The simulator's shortcode serves both products, with the simulator's app and this consumer secret. */
  private void serveBoth(String secret) {
    serveBoth(DarajaSimulator.CONSUMER_KEY, secret);
  }

  /** The simulator's shortcode serves both products, as the app of this consumer key and secret. */
  private void serveBoth(String key, String secret) {
    for (JsonNode s : http().get(SHORTCODES, OPERATOR).json().get("data")) {
      if (!s.get("shortcode").stringValue().equals(DarajaSimulator.SHORTCODE) && !s.get("products").isEmpty()) {
        assertThat(put(s.get("shortcode").stringValue(), "{\"products\":[]}").status()).isEqualTo(200);
      }
    }
    TestHttp.Response response = put(DarajaSimulator.SHORTCODE,
        shortcode(key, secret, credential(), "[\"b2c\",\"b2b\"]"));
    assertThat(response.status()).as(response.body()).isIn(200, 201);
  }

  private static String phone() {
    return String.format("2547%08d", PHONES.incrementAndGet());
  }

  private String funded() {
    String organisation = UUID.randomUUID().toString();
    ledger.credit(OrganisationId.of(organisation), Currency.KSH, "daraja-test-" + organisation,
        new BigDecimal("10000"));
    return organisation;
  }

  /** What the organisation may pay out now (live balances open at zero; sandbox ones may carry an opening float). */
  private BigDecimal available(String organisation) {
    return ledger.balance(OrganisationId.of(organisation), Currency.KSH).available();
  }

  private String create(String path, String organisation, String body) {
    TestHttp.Response response = http().postJson(path, body, merchant(organisation));
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    return response.json().get("data").get("requestId").stringValue();
  }

  private static String sendMoney(String phone, String amount) {
    return """
        {"phoneNumber":"%s","amount":%s,"remarks":"salary","occasion":"June",
         "callbackUrl":"https://merchant.example/callbacks/b2c"}""".formatted(phone, amount);
  }

  private static String business(String number, String account) {
    return """
        {"businessNumber":"%s","accountNumber":"%s","amount":120,"remarks":"stock","occasion":"June",
         "callbackUrl":"https://merchant.example/callbacks/b2b"}""".formatted(number, account);
  }

  private Document logEntry(String requestId) {
    return database.getCollection(PayoutRequestLog.COLLECTION).find(Filters.eq("_id", requestId)).first();
  }

  private boolean inState(String requestId, String state) {
    Document entry = logEntry(requestId);
    return entry != null && state.equals(entry.getString("state"));
  }

  private String status(String requestId) {
    Document payout = database.getCollection("payouts").find(Filters.eq("_id", requestId)).first();
    return payout == null ? null : payout.getString("status");
  }

  private static JsonNode lastBody(String path) {
    List<DarajaSimulator.Received> received = daraja.received(path);
    return JSON.readTree(received.get(received.size() - 1).body());
  }

  @Nested
  class PutShortcode {

    @Test
    void storesTheSecretsSealedAndShowsOnlyWhetherTheyAreSetAndTheirFingerprints() {
      String shortcode = "6" + (100000 + PHONES.incrementAndGet());
      String credential = credential();

      TestHttp.Response response = put(shortcode, shortcode("secret-" + shortcode, credential, "[]"));

      assertThat(response.status()).isEqualTo(201);
      assertThat(response.body()).doesNotContain("secret-" + shortcode, credential, DarajaSimulator.CONSUMER_KEY);
      JsonNode secrets = response.json().get("data").get("secrets");
      assertThat(secrets.get("securityCredential").get("fingerprint").stringValue())
          .isEqualTo(Fingerprints.of(credential));
      Document stored = database.getCollection(PayoutShortcodeStore.COLLECTION).find(Filters.eq("_id", shortcode))
          .first();
      assertThat(stored.toJson()).doesNotContain("secret-" + shortcode, credential);
      assertThat(stored.getString("securityCredential")).startsWith("lipa-sealed:v1:");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Sim-initiator-password-1", "c2VjcmV0", "not base64 at all!", "QUJD\nREVG"})
    void refusesAPasswordWhereTheSecurityCredentialBelongs(String credential) {
      String shortcode = "6" + (100000 + PHONES.incrementAndGet());

      TestHttp.Response response = put(shortcode, shortcode("s", JSON.writeValueAsString(credential)
          .replaceAll("^\"|\"$", ""), "[]"));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").has("securityCredential")).isTrue();
      assertThat(response.body()).doesNotContain("Sim-initiator-password-1");
      assertThat(http().get(SHORTCODES + "/" + shortcode, OPERATOR).status()).isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"initiatorPassword", "password", "InitiatorPassWord"})
    void refusesAPasswordFieldUnderAnySpelling(String field) {
      String shortcode = "6" + (100000 + PHONES.incrementAndGet());
      TestHttp.Response response = put(shortcode, """
          {"consumerKey":"k","consumerSecret":"s","initiatorName":"api","securityCredential":"%s","%s":"hunter2"}"""
          .formatted(credential(), field));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").get(field).get(0).stringValue()).contains("never accepted");
      assertThat(http().get(SHORTCODES + "/" + shortcode, OPERATOR).status()).isEqualTo(404);
    }

    @Test
    void servesEachProductFromOneShortcodeOnly() {
      serveBoth(DarajaSimulator.CONSUMER_SECRET);
      String other = "6" + (100000 + PHONES.incrementAndGet());

      TestHttp.Response second = put(other, shortcode("s", credential(), "[\"b2c\"]"));

      assertThat(second.status()).isEqualTo(409);
      assertThat(http().get(SHORTCODES + "/" + other, OPERATOR).status()).isEqualTo(404);
    }

    @Test
    void refusesACallerWithoutTheOperatorToken() {
      String shortcode = "6" + (100000 + PHONES.incrementAndGet());
      TestHttp.Response merchant = http().send("PUT", SHORTCODES + "/" + shortcode,
          shortcode("s", credential(), "[]"), json(merchant(UUID.randomUUID().toString())));

      assertThat(merchant.status()).isEqualTo(401);
      assertThat(http().get(SHORTCODES + "/" + shortcode, OPERATOR).status()).isEqualTo(404);
    }
  }

  @Nested
  class PayoutsThroughDaraja {

    @Test
    void paysSendMoneyByB2cWithTheRequestIdAsOriginatorConversationId() {
      serveBoth(DarajaSimulator.CONSUMER_SECRET);
      String phone = phone();

      String requestId = create(SEND_MONEY, funded(), sendMoney(phone, "150"));

      await(() -> inState(requestId, "ACCEPTED"));
      assertThat(daraja.received(B2C)).hasSize(1);
      JsonNode sent = lastBody(B2C);
      assertThat(sent.get("OriginatorConversationID").asString()).isEqualTo(requestId);
      assertThat(sent.get("CommandID").asString()).isEqualTo("BusinessPayment");
      assertThat(sent.get("PartyA").asString()).isEqualTo(DarajaSimulator.SHORTCODE);
      assertThat(sent.get("PartyB").asString()).isEqualTo(phone);
      assertThat(sent.get("Amount").asLong()).isEqualTo(150);
      assertThat(sent.get("ResultURL").asString()).startsWith("http://127.0.0.1:1/platform/daraja/v1/results/");
      assertThat(logEntry(requestId).getString("conversationId")).isNotBlank();
      assertThat(status(requestId)).isEqualTo("PENDING");
    }

    @Test
    void paysATillByBusinessBuyGoodsAndAPaybillByBusinessPayBill() {
      serveBoth(DarajaSimulator.CONSUMER_SECRET);
      String organisation = funded();

      String till = create(TILL, organisation, business("600222", "T1"));
      await(() -> inState(till, "ACCEPTED"));
      JsonNode tillBody = lastBody(B2B);
      String paybill = create(PAYBILL, organisation, business("888880", "ACC-77"));
      await(() -> inState(paybill, "ACCEPTED"));
      JsonNode paybillBody = lastBody(B2B);

      assertThat(tillBody.get("CommandID").asString()).isEqualTo("BusinessBuyGoods");
      assertThat(tillBody.get("PartyB").asString()).isEqualTo("600222");
      assertThat(paybillBody.get("CommandID").asString()).isEqualTo("BusinessPayBill");
      assertThat(paybillBody.get("PartyB").asString()).isEqualTo("888880");
      assertThat(paybillBody.get("AccountReference").asString()).isEqualTo("ACC-77");
      assertThat(paybillBody.get("OriginatorConversationID").asString()).isEqualTo(paybill);
    }

    @Test
    void failsAPayoutThatCouldNotBeSentAndReleasesItsReservation() {
      // an app Daraja does not know: a token is the app's (its consumer key's), whatever secret fetched it, so a
      // wrong secret for the simulator's own app would still pay with the token an earlier test's overdue sweep may
      // have put in the shared store after this test's clean-up
      serveBoth("not-a-consumer-key", "not-the-consumer-secret");
      String organisation = funded();
      BigDecimal before = available(organisation);

      String requestId = create(SEND_MONEY, organisation, sendMoney(phone(), "150"));

      await(() -> "FAILED".equals(status(requestId)));
      assertThat(logEntry(requestId).getString("state")).isEqualTo("REFUSED");
      assertThat(daraja.received(B2C)).isEmpty();
      assertThat(available(organisation)).isEqualByComparingTo(before);
    }

    @Test
    void neverResendsAPayoutWhoseAnswerTimedOutAndAsksTransactionStatusInstead() {
      serveBoth(DarajaSimulator.CONSUMER_SECRET);
      daraja.faults().answerAfter(Duration.ofMillis(1500));

      String requestId = create(SEND_MONEY, funded(), sendMoney(phone(), "150"));

      await(() -> inState(requestId, "UNKNOWN"));
      daraja.faults().answerAfter(Duration.ZERO);
      // the overdue sweep asks about it by its OriginatorConversationID, which moves no money
      await(() -> daraja.received(STATUS).stream()
          .anyMatch(r -> requestId.equals(JSON.readTree(r.body()).path("OriginalConversationID").asString())));
      assertThat(daraja.received(B2C)).hasSize(1);
      assertThat(status(requestId)).isEqualTo("PENDING");
    }

    @Test
    void leavesAPayoutPendingUnderASpikeArrestAndNeverResendsIt() throws InterruptedException {
      serveBoth(DarajaSimulator.CONSUMER_SECRET);
      daraja.faults().spikeArrest(true);

      String requestId = create(SEND_MONEY, funded(), sendMoney(phone(), "150"));

      await(() -> inState(requestId, "UNKNOWN"));
      Thread.sleep(500);
      assertThat(daraja.received(B2C)).hasSize(1);
      assertThat(status(requestId)).isEqualTo("PENDING");
    }

    @Test
    void refusesAPayoutNoDarajaShortcodeCanCarryBeforeAnythingIsReserved() {
      serveBoth(DarajaSimulator.CONSUMER_SECRET);
      String organisation = funded();
      BigDecimal before = available(organisation);

      TestHttp.Response tenDigits = http().postJson(TILL, business("6002221234", "T1"), merchant(organisation));

      assertThat(tenDigits.status()).isEqualTo(400);
      assertThat(tenDigits.json().get("errors").has("businessNumber")).isTrue();
      assertThat(available(organisation)).isEqualByComparingTo(before);
      assertThat(daraja.received(B2B)).isEmpty();
    }

    @Test
    void answers503WhenNoShortcodeServesTheProduct() {
      for (JsonNode s : http().get(SHORTCODES, OPERATOR).json().get("data")) {
        put(s.get("shortcode").stringValue(), "{\"products\":[]}");
      }
      String organisation = funded();
      BigDecimal before = available(organisation);

      TestHttp.Response response = http().postJson(SEND_MONEY, sendMoney(phone(), "150"), merchant(organisation));

      assertThat(response.status()).isEqualTo(503);
      assertThat(response.json().get("message").stringValue()).contains("no live rail is configured");
      assertThat(available(organisation)).isEqualByComparingTo(before);
    }
  }

  private String acceptedPayout(String organisation, String phone) {
    serveBoth(DarajaSimulator.CONSUMER_SECRET);
    String requestId = create(SEND_MONEY, organisation, sendMoney(phone, "150"));
    await(() -> inState(requestId, "ACCEPTED"));
    return requestId;
  }

  @Nested
  class DarajaResults {

    @Test
    void settlesAPaidPayoutOnceWhateverTheRepeats() {
      String organisation = funded();
      BigDecimal before = available(organisation);
      String requestId = acceptedPayout(organisation, phone());
      Posted result = resultNaming(requestId);

      TestHttp.Response first = http().postJson(result.path(), result.body(), FROM_DARAJA);
      TestHttp.Response again = http().postJson(result.path(), result.body(), FROM_DARAJA);

      assertThat(first.status()).isEqualTo(200);
      assertThat(again.status()).isEqualTo(200);
      assertThat(status(requestId)).isEqualTo("SUCCESS");
      assertThat(available(organisation)).isEqualByComparingTo(before.subtract(new BigDecimal("150")));
      assertThat(ledger.balance(OrganisationId.of(organisation), Currency.KSH).reserved()).isZero();
    }

    @Test
    void failsAPayoutDarajaCouldNotPayAndReleasesItsReservation() {
      String organisation = funded();
      BigDecimal before = available(organisation);
      String phone = phone();
      daraja.payoutResult(phone, "2040");
      String requestId = acceptedPayout(organisation, phone);
      Posted result = resultNaming(requestId);

      assertThat(http().postJson(result.path(), result.body(), FROM_DARAJA).status()).isEqualTo(200);

      assertThat(status(requestId)).isEqualTo("FAILED");
      assertThat(available(organisation)).isEqualByComparingTo(before);
    }

    @Test
    void refusesAResultFromAnotherAddressOrWithAnotherAmountOrAtAGuessedAddress() {
      String requestId = acceptedPayout(funded(), phone());
      Posted result = resultNaming(requestId);

      TestHttp.Response elsewhere = http().postJson(result.path(), result.body(),
          Map.of("X-Forwarded-For", "203.0.113.9", "Content-Type", "application/json"));
      TestHttp.Response amount = http().postJson(result.path(),
          result.body().replace("\"Value\":150", "\"Value\":15000").replace("\"Value\":\"150", "\"Value\":\"15000"),
          FROM_DARAJA);
      TestHttp.Response guessed = http().postJson(result.path() + "x", result.body(), FROM_DARAJA);
      TestHttp.Response timeoutPath = http().postJson(result.path().replace("/results/", "/timeouts/"),
          result.body(), FROM_DARAJA);

      assertThat(elsewhere.status()).isEqualTo(403);
      assertThat(amount.status()).isEqualTo(400);
      assertThat(guessed.status()).isEqualTo(404);
      assertThat(timeoutPath.status()).isEqualTo(200); // a queue timeout settles nothing
      assertThat(status(requestId)).isEqualTo("PENDING");
    }

    @Test
    void settlesAnUnknownPayoutByItsTransactionStatusResult() {
      serveBoth(DarajaSimulator.CONSUMER_SECRET);
      daraja.faults().answerAfter(Duration.ofMillis(1500));
      String requestId = create(SEND_MONEY, funded(), sendMoney(phone(), "150"));
      await(() -> inState(requestId, "UNKNOWN"));
      daraja.faults().answerAfter(Duration.ZERO);
      await(() -> logEntry(requestId).getList("statusConversationIds", String.class) != null);
      String asked = logEntry(requestId).getList("statusConversationIds", String.class).get(0);

      Posted status = resultNaming(asked);
      TestHttp.Response response = http().postJson(status.path(), status.body(), FROM_DARAJA);

      assertThat(response.status()).isEqualTo(200);
      assertThat(status(requestId)).isEqualTo("SUCCESS");
      assertThat(daraja.received(B2C)).hasSize(1);
    }
  }
}
