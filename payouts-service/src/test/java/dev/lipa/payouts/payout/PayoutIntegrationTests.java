package dev.lipa.payouts.payout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.payouts.PayoutsIntegrationTest;
import dev.lipa.common.testsupport.TopicRecorder;
import dev.lipa.payouts.ledger.LedgerEntry;
import dev.lipa.payouts.ledger.LedgerStore;
import dev.lipa.payouts.money.Currency;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class PayoutIntegrationTests extends PayoutsIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String TZ = """
      {"phoneNumber":"255712345678","amount":1000,"currencyCode":"TZS","narration":"wages","firstName":"Asha",
       "lastName":"Juma","serviceCode":"TZ-TIGO-B2C","callbackUrl":"https://merchant.example/cb"}""";

  @Autowired
  LedgerStore ledgerStore;

  private JsonNode callbackOf(String requestId) {
    await(() -> !TopicRecorder.records(Topics.CALLBACKS, requestId).isEmpty());
    List<ConsumerRecord<String, String>> records = TopicRecorder.records(Topics.CALLBACKS, requestId);
    assertThat(records).hasSize(1);
    return JSON.readTree(records.getFirst().value());
  }

  private List<String> payoutEventTypes(String requestId) {
    return TopicRecorder.records(Topics.PAYOUTS, requestId).stream()
        .map(r -> JSON.readTree(r.value()).get("type").stringValue()).toList();
  }

  @Nested
  class SendMoney {

    @Test
    void acceptsPaysSettlesAndAsksForTheSpecsCallbackBody() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(SEND_MONEY, kenyan("0712345678", 250), as(org));

      assertThat(response.status()).isEqualTo(201);
      JsonNode data = response.json().get("data");
      assertThat(data.propertyNames()).containsExactly("requestId", "amount", "phoneNumber", "status");
      assertThat(data.get("phoneNumber").stringValue()).isEqualTo("254712345678");
      assertThat(data.get("status").stringValue()).isEqualTo("PENDING");
      assertThat(data.get("amount").toString()).isEqualTo("250");
      String requestId = data.get("requestId").stringValue();
      // reserved on acceptance (the balance itself may already be settled: the sandbox answers in 400 ms)
      assertThat(ledgerStore.entries(OrganisationId.of(org), Currency.KSH)).extracting(LedgerEntry::id)
          .startsWith(org + ":KSH:opening", requestId + ":reserve");

      JsonNode callback = callbackOf(requestId);
      assertThat(callback.get("type").stringValue()).isEqualTo("callback.requested");
      assertThat(callback.get("organisationId").stringValue()).isEqualTo(org);
      assertThat(callback.get("data").get("url").stringValue()).isEqualTo("https://merchant.example/callbacks/b2c");
      assertThat(callback.get("data").get("kind").stringValue()).isEqualTo("sendmoney");
      assertThat(callback.get("data").get("body").toString()).isEqualTo(
          "{\"requestId\":\"" + requestId + "\",\"phoneNumber\":\"254712345678\",\"status\":\"SUCCESS\","
              + "\"amount\":250}");
      assertThat(balance(org, "KSH")).containsExactly(new BigDecimal("750"), BigDecimal.ZERO);
      await(() -> payoutEventTypes(requestId).size() == 2);
      assertThat(payoutEventTypes(requestId)).containsExactly("sendmoney.accepted", "sendmoney.succeeded");

      JsonNode record = http().get(SEND_MONEY + "/all?companyId=" + org, as(org)).json().get("data").get(0);
      assertThat(record.propertyNames()).containsExactly("id", "amount", "uuid", "organisation", "phoneNumber",
          "remarks", "occasion", "originatorConversationId", "conversationId", "callbackUrl", "createdAt",
          "updatedAt", "status", "responseCode", "receiverName", "transactionReceipt");
      assertThat(record.get("uuid").stringValue()).isEqualTo(requestId);
      assertThat(record.get("status").stringValue()).isEqualTo("SUCCESS");
      assertThat(record.get("transactionReceipt").stringValue()).matches("[A-Z][A-Z0-9]{9}");
      assertThat(record.get("organisation").get("uuid").stringValue()).isEqualTo(org);
      assertThat(record.get("createdAt").stringValue()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lipa.payouts.payout.PayoutIntegrationTests#providerFailures")
    void aProviderFailureFailsThePayoutAndReleasesItsReservation(String phone) {
      String org = newOrganisation();
      String requestId = create(SEND_MONEY, org, kenyan(phone, 400));

      JsonNode callback = callbackOf(requestId);

      assertThat(callback.get("data").get("body").get("status").stringValue()).isEqualTo("FAILED");
      assertThat(balance(org, "KSH")).containsExactly(new BigDecimal("1000"), BigDecimal.ZERO);
      await(() -> payoutEventTypes(requestId).size() == 2);
      assertThat(payoutEventTypes(requestId)).containsExactly("sendmoney.accepted", "sendmoney.failed");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lipa.payouts.payout.PayoutIntegrationTests#invalidSendMoney")
    void refusesAnInvalidFieldAndReservesNothing(String body, String field) {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(SEND_MONEY, body, as(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).contains(field);
      assertThat(balance(org, "KSH")).containsExactly(new BigDecimal("1000"), BigDecimal.ZERO);
    }

    @Test
    void acceptsTanzanianAndUgandanPayouts() {
      String org = newOrganisation();
      assertThat(http().postJson(SEND_MONEY, TZ, as(org)).status()).isEqualTo(201);
      assertThat(http().postJson(SEND_MONEY, """
          {"phoneNumber":"+256772123456","amount":5000,"currencyCode":"UGX","narration":"refund",
           "customerName":"Okello","callbackUrl":"https://merchant.example/cb"}""", as(org)).status()).isEqualTo(201);
      // both succeed in the sandbox: once settled, each account is short of exactly its payout
      await(() -> balance(org, "TZS")[1].signum() == 0 && balance(org, "UGX")[1].signum() == 0);
      assertThat(balance(org, "TZS")[0]).isEqualByComparingTo("49000");
      assertThat(balance(org, "UGX")[0]).isEqualByComparingTo("45000");
    }

    @Test
    void aRepeatedIdempotencyKeyReplaysTheFirstAnswerAndReservesOnce() {
      String org = newOrganisation();
      Map<String, String> headers = new HashMap<>(as(org));
      headers.put("Idempotency-Key", "pay-salary-7");

      TestHttp.Response first = http().postJson(SEND_MONEY, kenyan("254712345678", 100), headers);
      TestHttp.Response again = http().postJson(SEND_MONEY, kenyan("254712345678", 100), headers);
      TestHttp.Response changed = http().postJson(SEND_MONEY, kenyan("254712345678", 200), headers);

      assertThat(first.status()).isEqualTo(201);
      assertThat(again.status()).isEqualTo(201);
      assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(again.json()).isEqualTo(first.json());
      assertThat(changed.status()).isEqualTo(409);
      assertThat(database.getCollection("payouts").countDocuments(new org.bson.Document("organisationId", org)))
          .isEqualTo(1);
      assertReservedOnceThenSettled(org, first.json().get("data").get("requestId").stringValue(), "100");
    }

    @Test
    void aRepeatedReferenceIdReturnsTheOriginalPayoutAndReservesOnce() {
      String org = newOrganisation();
      String body = kenyan("254712345678", 100).replace("{", "{\"referenceId\":\"pay-1\",");

      String first = create(SEND_MONEY, org, body);
      TestHttp.Response again = http().postJson(SEND_MONEY, body, as(org));
      TestHttp.Response other = http().postJson(SEND_MONEY, body.replace("100", "200"), as(org));

      assertThat(again.status()).isEqualTo(201);
      assertThat(again.json().get("data").get("requestId").stringValue()).isEqualTo(first);
      assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(other.status()).isEqualTo(409);
      assertThat(database.getCollection("payouts").countDocuments(new org.bson.Document("organisationId", org)))
          .isEqualTo(1);
      assertReservedOnceThenSettled(org, first, "100");
    }

    /**
     * The account's journal holds exactly one reservation, the first request's, and its settlement: neither the
     * replay nor the conflicting repeat reserved anything, not even for a moment (a reservation made and released again
     * would leave its entries here, and an orphaned one the ledger's repair releases would too).
     */
    private void assertReservedOnceThenSettled(String org, String requestId, String amount) {
      await(() -> balance(org, "KSH")[1].signum() == 0);
      assertThat(ledgerStore.entries(OrganisationId.of(org), Currency.KSH))
          .extracting(e -> e.kind() + " " + e.requestId() + " " + e.amount().toPlainString())
          // the entries' order is their timestamps', and the opening and the reservation can share a millisecond
          .containsExactlyInAnyOrder("OPENING " + org + ":KSH 1000", "RESERVE " + requestId + " " + amount,
              "SETTLE " + requestId + " " + amount);
      assertThat(balance(org, "KSH")).containsExactly(new BigDecimal(1000).subtract(new BigDecimal(amount)),
          BigDecimal.ZERO);
    }
  }

  static Stream<Arguments> providerFailures() {
    return Stream.of(
        Arguments.of(named("insufficient funds at the provider", "254700000001")),
        Arguments.of(named("invalid account", "254700000404")),
        Arguments.of(named("timeout", "254700000408")));
  }

  static Stream<Arguments> invalidSendMoney() {
    return Stream.of(
        Arguments.of(named("a Tanzanian number for KSH", kenyan("255712345678", 10)), "phoneNumber"),
        Arguments.of(named("a landline", kenyan("0202345678", 10)), "phoneNumber"),
        Arguments.of(named("a decimal amount", kenyan("254712345678", 10).replace("10,", "10.5,")), "amount"),
        Arguments.of(named("amount as a string", kenyan("254712345678", 10).replace("10,", "\"10\",")), "amount"),
        Arguments.of(named("KSH without remarks", kenyan("254712345678", 10).replace("\"remarks\":\"salary\",", "")),
            "remarks"),
        Arguments.of(named("KSH without occasion", kenyan("254712345678", 10).replace("\"occasion\":\"June\",", "")),
            "occasion"),
        Arguments.of(named("without callbackUrl", "{\"phoneNumber\":\"254712345678\",\"amount\":10,"
            + "\"remarks\":\"r\",\"occasion\":\"o\"}"), "callbackUrl"),
        Arguments.of(named("TZS below 1000", TZ.replace("1000", "999")), "amount"),
        Arguments.of(named("TZS without firstName", TZ.replace("\"firstName\":\"Asha\",", "")), "firstName"),
        Arguments.of(named("TZS without lastName", TZ.replace("\"lastName\":\"Juma\",", "")), "lastName"),
        Arguments.of(named("TZS without narration", TZ.replace("\"narration\":\"wages\",", "")), "narration"),
        Arguments.of(named("TZS with an unknown serviceCode", TZ.replace("TZ-TIGO-B2C", "TZ-VODA-B2C")),
            "serviceCode"),
        Arguments.of(named("TZS Airtel number on the Tigo service", TZ.replace("255712345678", "255682345678")),
            "phoneNumber"),
        Arguments.of(named("UGX without customerName", """
            {"phoneNumber":"256772123456","amount":5000,"currencyCode":"UGX","narration":"n",
             "callbackUrl":"https://m.example/cb"}"""), "customerName"),
        Arguments.of(named("USD, which no rail pays out",
            kenyan("254712345678", 10).replace("{", "{\"currencyCode\":\"USD\",")), "currencyCode"),
        Arguments.of(named("an unknown currency", kenyan("254712345678", 10).replace("{", "{\"currencyCode\":\"EUR\",")),
            "currencyCode"),
        Arguments.of(named("a loopback callbackUrl (SSRF)", kenyan("254712345678", 10)
            .replaceAll("\"callbackUrl\":\"[^\"]*\"", "\"callbackUrl\":\"http://127.0.0.1:9000/cb\"")), "callbackUrl"),
        Arguments.of(named("the cloud metadata address (SSRF)", kenyan("254712345678", 10)
            .replaceAll("\"callbackUrl\":\"[^\"]*\"", "\"callbackUrl\":\"http://169.254.169.254/\"")), "callbackUrl"));
  }

  @Nested
  class TillAndPaybill {

    @Test
    void aTillPaymentSucceedsWithTheSpecsCallbackBody() {
      String org = newOrganisation();
      TestHttp.Response response = http().postJson(TILL, """
          {"businessNumber":"174379","accountNumber":"INV-7","amount":120,"remarks":"stock",
           "callbackUrl":"https://merchant.example/till"}""", as(org));

      assertThat(response.status()).isEqualTo(201);
      JsonNode data = response.json().get("data");
      assertThat(data.propertyNames()).containsExactly("requestId", "accountNumber", "businessNumber", "amount",
          "status");
      String requestId = data.get("requestId").stringValue();
      assertThat(callbackOf(requestId).get("data").get("body").toString()).isEqualTo(
          "{\"accountNumber\":\"INV-7\",\"businessNumber\":\"174379\",\"requestId\":\"" + requestId
              + "\",\"amount\":120,\"status\":\"SUCCESS\"}");
      assertThat(balance(org, "KSH")).containsExactly(new BigDecimal("880"), BigDecimal.ZERO);
      JsonNode record = http().get(TILL + "/all?companyId=" + org, as(org)).json().get("data").get(0);
      assertThat(record.propertyNames()).containsExactly("id", "amount", "uuid", "organisation", "accountNumber",
          "businessNumber", "remarks", "occasion", "originatorConversationId", "conversationId", "callbackUrl",
          "createdAt", "updatedAt", "status", "responseCode", "receiverName", "transactionReceipt",
          "responseDescription");
    }

    @Test
    void aPaybillToTheInvalidAccountBusinessNumberFailsAndItsStatusSaysSo() {
      String org = newOrganisation();
      String requestId = create(PAYBILL, org, """
          {"businessNumber":"000404","accountNumber":"ACC1","amount":300,"remarks":"rent","occasion":"July",
           "callbackUrl":"https://merchant.example/paybill"}""");

      assertThat(callbackOf(requestId).get("data").get("body").get("status").stringValue()).isEqualTo("FAILED");
      TestHttp.Response status = http().get(PAYBILL + "/status?requestId=" + requestId, as(org));
      assertThat(status.json().get("data").toString()).isEqualTo("{\"accountNumber\":\"ACC1\","
          + "\"businessNumber\":\"000404\",\"requestId\":\"" + requestId + "\",\"amount\":300,\"status\":\"FAILED\"}");
      assertThat(balance(org, "KSH")).containsExactly(new BigDecimal("1000"), BigDecimal.ZERO);
      assertThat(http().get(PAYBILL + "/status?requestId=" + requestId, as(newOrganisation())).status())
          .isEqualTo(404);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lipa.payouts.payout.PayoutIntegrationTests#invalidBusinessPayments")
    void refusesAnInvalidField(String path, String body, String field) {
      TestHttp.Response response = http().postJson(path, body, as(newOrganisation()));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").propertyNames()).contains(field);
    }
  }

  static Stream<Arguments> invalidBusinessPayments() {
    String till = """
        {"businessNumber":"174379","amount":10,"callbackUrl":"https://m.example/cb"}""";
    String paybill = """
        {"businessNumber":"888880","accountNumber":"A1","amount":10,"remarks":"r","occasion":"o",
         "callbackUrl":"https://m.example/cb"}""";
    return Stream.of(
        Arguments.of(named("till without businessNumber", TILL), till.replace("\"businessNumber\":\"174379\",", ""),
            "businessNumber"),
        Arguments.of(named("till accountNumber of 14", TILL), till.replace("{", "{\"accountNumber\":\"12345678901234\","),
            "accountNumber"),
        Arguments.of(named("till remarks of 101", TILL), till.replace("{", "{\"remarks\":\"" + "r".repeat(101) + "\","),
            "remarks"),
        Arguments.of(named("till occasion of 101", TILL), till.replace("{", "{\"occasion\":\"" + "o".repeat(101) + "\","),
            "occasion"),
        Arguments.of(named("till amount 0", TILL), till.replace("10,", "0,"), "amount"),
        Arguments.of(named("till without callbackUrl", TILL), "{\"businessNumber\":\"174379\",\"amount\":10}",
            "callbackUrl"),
        Arguments.of(named("paybill without accountNumber", PAYBILL), paybill.replace("\"accountNumber\":\"A1\",", ""),
            "accountNumber"),
        Arguments.of(named("paybill without remarks", PAYBILL), paybill.replace("\"remarks\":\"r\",", ""), "remarks"),
        Arguments.of(named("paybill without occasion", PAYBILL), paybill.replace("\"occasion\":\"o\",", ""),
            "occasion"),
        Arguments.of(named("paybill in TZS", PAYBILL), paybill.replace("{", "{\"currencyCode\":\"TZS\","),
            "currencyCode"));
  }

  @Nested
  class ListsAndLookups {

    @Test
    void listsASubAccountsPayoutsForItsParentButRefusesEveryOtherCompanyAlike() {
      String parent = newOrganisation();
      String child = newOrganisation();
      String stranger = newOrganisation();
      subAccount(child, parent);
      String requestId = create(SEND_MONEY, child, kenyan("254712345678", 10));

      JsonNode list = http().get(SEND_MONEY + "/all?companyId=" + child, as(parent)).json();
      assertThat(list.get("data").get(0).get("uuid").stringValue()).isEqualTo(requestId);
      for (String path : List.of(SEND_MONEY + "/all?companyId=", TILL + "/all?companyId=",
          PAYBILL + "/all?companyId=")) {
        TestHttp.Response foreign = http().get(path + child, as(stranger));
        TestHttp.Response unknown = http().get(path + newOrganisation(), as(stranger));
        TestHttp.Response upwards = http().get(path + parent, as(child));
        assertThat(List.of(foreign.status(), unknown.status(), upwards.status())).containsOnly(404);
        assertThat(foreign.body()).isEqualTo(unknown.body());
      }
      assertThat(http().get(SEND_MONEY + "/all", as(parent)).status()).isEqualTo(400);
      assertThat(http().get(TILL + "/all", as(parent)).status()).isEqualTo(400);
    }

    @Test
    void looksUpTheCallersTanzanianPayoutWithADeviceId() {
      String org = newOrganisation();
      String requestId = create(SEND_MONEY, org, TZ);
      String kenyan = create(SEND_MONEY, org, kenyan("254712345678", 10));
      Map<String, String> headers = new HashMap<>(as(org));
      headers.put("Device-Id", "device-1");

      TestHttp.Response found = http().get("/api/v1/tz/spending/single?requestId=" + requestId, headers);
      assertThat(found.status()).isEqualTo(200);
      assertThat(found.json().get("data").get("uuid").stringValue()).isEqualTo(requestId);
      assertThat(found.json().get("data").get("currencyCode").stringValue()).isEqualTo("TZS");
      assertThat(found.json().get("data").get("serviceCode").stringValue()).isEqualTo("TZ-TIGO-B2C");

      TestHttp.Response noDevice = http().get("/api/v1/tz/spending/single?requestId=" + requestId, as(org));
      assertThat(noDevice.status()).isEqualTo(400);
      assertThat(noDevice.json().get("errors").propertyNames()).containsExactly("Device-Id");

      Map<String, String> stranger = new HashMap<>(as(newOrganisation()));
      stranger.put("Device-Id", "device-2");
      assertThat(http().get("/api/v1/tz/spending/single?requestId=" + requestId, stranger).status()).isEqualTo(404);
      assertThat(http().get("/api/v1/tz/spending/single?requestId=" + kenyan, headers).status()).isEqualTo(404);
    }
  }
}
