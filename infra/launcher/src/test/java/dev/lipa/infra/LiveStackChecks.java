package dev.lipa.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lipa.common.testsupport.TestHttp;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the system test checks on the live stack of {@code ./platform up --daraja-simulator}, through the gateway as a
 * merchant with a live key would: an STK push paid on the simulator, the balance it credits, and a payout of each kind
 * from that balance, each settled by Daraja's callback or result; and the cases no callback settles (a callback the
 * simulator never sends, a payout whose answer came too late), settled by the platform's own questions to Daraja.
 */
final class LiveStackChecks {

  /** Daraja's API paths, as the simulator counts the requests it accepted on each. */
  static final String STK_PUSH = "/mpesa/stkpush/v1/processrequest";
  static final String STK_QUERY = "/mpesa/stkpushquery/v1/query";
  static final String B2C = "/mpesa/b2c/v3/paymentrequest";
  static final String TRANSACTION_STATUS = "/mpesa/transactionstatus/v1/query";
  /** A number the simulator's customer pays from (Daraja's test number). */
  static final String PAYING_PHONE = "254708374149";
  static final Duration SETTLED = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final TestHttp gateway;
  private final String simulator;
  private final Map<String, String> merchant;

  LiveStackChecks(TestHttp gateway, String simulatorUrl, String liveToken) {
    this.gateway = gateway;
    this.simulator = simulatorUrl;
    this.merchant = TestHttp.bearer(liveToken);
  }

  /** A live API key for the organisation, issued through the gateway's operator API: {apiKey, apiSecret}. */
  static JsonNode issueLiveKey(TestHttp gateway, String organisationId, String operatorToken) {
    TestHttp.Response key = gateway.postJson("/admin/v1/organisations/" + organisationId + "/api-keys",
        "{\"environment\":\"live\"}", Map.of("X-Operator-Token", operatorToken));
    assertThat(key.status()).as(key.body()).isEqualTo(201);
    assertThat(key.json().path("data").path("environment").asString()).isEqualTo("live");
    return key.json().path("data");
  }

  String stkPush(String phone, int amount) {
    return created("/api/v1/stk/new", stkPushBody(phone, amount, null));
  }

  /** The body of a live STK push, with the caller's own referenceId when it is not null. */
  static String stkPushBody(String phone, int amount, String referenceId) {
    return """
        {"description":"Order 7","phoneNumber":"%s","amount":%d,"accountReference":"INV7",
         "callbackUrl":"https://merchant.example/callbacks/stk"%s}""".formatted(phone, amount,
        referenceId == null ? "" : ",\"referenceId\":\"" + referenceId + "\"");
  }

  /**
   * A Kenyan number of its own, which the simulator's customer pays from like any other: pushes beyond the existing
   * ones go to it, so that none meets {@link #PAYING_PHONE}'s prompt limit (3 a minute) or a push still open on it.
   */
  static String anotherPayingPhone() {
    return "25471" + String.format("%07d", ThreadLocalRandom.current().nextInt(10_000_000));
  }

  /** The live key's token, as the gateway wants it. */
  Map<String, String> bearer() {
    return merchant;
  }

  String sendMoney(String phone, int amount) {
    return created("/api/v1/send-money", """
        {"phoneNumber":"%s","amount":%d,"remarks":"salary","occasion":"June",
         "callbackUrl":"https://merchant.example/callbacks/b2c"}""".formatted(phone, amount));
  }

  String payTill(String till, int amount) {
    return created("/api/v1/till", """
        {"businessNumber":"%s","amount":%d,"callbackUrl":"https://merchant.example/callbacks/till"}"""
        .formatted(till, amount));
  }

  String payPaybill(String paybill, String account, int amount) {
    return created("/api/v1/paybill", """
        {"businessNumber":"%s","accountNumber":"%s","amount":%d,"remarks":"rent","occasion":"June",
         "callbackUrl":"https://merchant.example/callbacks/paybill"}""".formatted(paybill, account, amount));
  }

  private String created(String path, String body) {
    TestHttp.Response response = gateway.postJson(path, body, merchant);
    assertThat(response.status()).as("POST %s: %s", path, response.body()).isEqualTo(201);
    return response.json().path("data").path("requestId").asString();
  }

  /** Waits until the record of {@code kind} (stk, send-money, till, paybill) is final, and returns it. */
  JsonNode awaitFinal(String kind, String requestId) {
    JsonNode[] record = new JsonNode[1];
    Awaitility.await().atMost(SETTLED).pollInterval(Duration.ofMillis(300)).until(() -> {
      TestHttp.Response response = gateway.get("/api/v1/" + kind + "/single?requestId=" + requestId, merchant);
      assertThat(response.status()).as(response.body()).isEqualTo(200);
      record[0] = response.json().path("data");
      return !"PENDING".equals(record[0].path("status").asString());
    });
    return record[0];
  }

  /** Waits until the record is final, asserts it succeeded and returns it. */
  JsonNode awaitSuccess(String kind, String requestId) {
    JsonNode record = awaitFinal(kind, requestId);
    assertThat(record.path("status").asString()).as("%s %s", kind, record).isEqualTo("SUCCESS");
    return record;
  }

  /** An STK push of {@code amount} that the customer pays, and the balance it credits: the balance after it. */
  BigDecimal collect(int amount) {
    BigDecimal expected = available().add(BigDecimal.valueOf(amount));
    awaitSuccess("stk", stkPush(PAYING_PHONE, amount));
    awaitAvailable(expected);
    return expected;
  }

  BigDecimal available() {
    TestHttp.Response response = gateway.get("/api/v1/balance", merchant);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    for (JsonNode balance : response.json().path("data")) {
      if ("KSH".equals(balance.path("currency").asString())) {
        return balance.path("available").decimalValue();
      }
    }
    return BigDecimal.ZERO;
  }

  void awaitAvailable(BigDecimal expected) {
    Awaitility.await().atMost(SETTLED).pollInterval(Duration.ofMillis(300))
        .untilAsserted(() -> assertThat(available()).isEqualByComparingTo(expected));
  }

  /**
   * Runs {@code send} under the simulator's fault modes until the simulator has accepted (answered 2xx) one more
   * request on {@code apiPath} (the rail sends after the 201, from its Kafka listener), then clears the faults, so that
   * what the platform asks afterwards (a query, a Transaction Status) meets a working Daraja. Accepted, not received:
   * a request refused for its token (the rail then fetches a fresh one and sends once more) is not the one the faults
   * are for. Only the faults are cleared, never the tokens, which the rail may be using at that very moment.
   */
  String underFaults(String faults, String apiPath, Supplier<String> send) {
    long before = accepted(apiPath);
    control("faults", faults);
    try {
      String requestId = send.get();
      Awaitility.await().atMost(SETTLED).pollInterval(Duration.ofMillis(100))
          .until(() -> accepted(apiPath) > before);
      return requestId;
    } finally {
      control("faults/clear", "");
    }
  }

  /**
   * How many requests on a Daraja API path the simulator has answered 2xx since it started (or was last reset): a test
   * takes it before and after, so that what other tests sent does not count.
   */
  long accepted(String apiPath) {
    return JSON.readTree(call("GET", "received", null)).path("accepted").path(apiPath).asLong(0);
  }

  private void control(String what, String body) {
    call("POST", what, body);
  }

  private String call(String method, String what, String body) {
    try {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(simulator + "/simulator/v1/" + what))
          .header("Content-Type", "application/json");
      request = body == null ? request.GET() : request.POST(HttpRequest.BodyPublishers.ofString(body));
      HttpResponse<String> answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      return answer.body();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
