package dev.lipa.daraja.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simulator held to the documentation's example bodies (docs/daraja/examples): it accepts the documented requests
 * (with our shortcode, credential and URLs put in), and its answers, error bodies, callbacks and results have the
 * documented shapes. Spoken to with a plain HTTP client, not the connector.
 */
class SimulatorFixtureIntegrationTests {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static DarajaSimulator daraja;
  private static HttpServer receiver;
  private static final Map<String, BlockingQueue<String>> POSTED = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() throws IOException {
    daraja = DarajaSimulator.start();
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    receiver.createContext("/", e -> {
      try (e) {
        queue(e.getRequestURI().getPath()).add(new String(e.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        e.sendResponseHeaders(200, -1);
      }
    });
    receiver.start();
  }

  @AfterAll
  static void stop() {
    daraja.close();
    receiver.stop(0);
  }

  @BeforeEach
  void clean() {
    daraja.reset();
    POSTED.clear();
  }

  private static BlockingQueue<String> queue(String path) {
    return POSTED.computeIfAbsent(path, p -> new LinkedBlockingQueue<>());
  }

  private static String url(String path) {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + path;
  }

  private static JsonNode posted(String path) throws InterruptedException {
    String body = queue(path).poll(5, TimeUnit.SECONDS);
    assertThat(body).as("posted to " + path).isNotNull();
    return JSON.readTree(body);
  }

  static ObjectNode example(String name) throws IOException {
    Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (!Files.isDirectory(p.resolve("docs/daraja/examples"))) {
      p = p.getParent();
    }
    return (ObjectNode) JSON.readTree(Files.readString(p.resolve("docs/daraja/examples/" + name + ".json")));
  }

  /** The shape of a body: its keys at every level, the Keys/Names of its key-value lists, and no values. */
  static Object shape(JsonNode n) {
    if (n.isObject()) {
      if (n.has("Key") || n.has("Name")) {
        return new TreeSet<>(Set.of("entry " + (n.has("Key") ? n.get("Key") : n.get("Name")).stringValue()));
      }
      Map<String, Object> m = new TreeMap<>();
      n.properties().forEach(e -> m.put(e.getKey(), shape(e.getValue())));
      return m;
    }
    if (n.isArray()) {
      Set<Object> entries = new TreeSet<>();
      for (JsonNode e : n) {
        Object s = shape(e);
        if (s instanceof Set<?> set) {
          set.forEach(x -> entries.add(x.toString()));
        } else {
          entries.add(s.toString());
        }
      }
      return entries;
    }
    return "value";
  }

  private static String token() throws Exception {
    String basic = Base64.getEncoder().encodeToString((DarajaSimulator.CONSUMER_KEY + ":"
        + DarajaSimulator.CONSUMER_SECRET).getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(daraja.baseUrl()
        + "/oauth/v1/generate?grant_type=client_credentials")).header("Authorization", "Basic " + basic).GET()
        .build(), HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(r.body()).path("access_token").stringValue();
  }

  private static HttpResponse<String> post(String path, JsonNode body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(daraja.baseUrl() + path))
        .header("Authorization", "Bearer " + token()).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String credential(String password) throws Exception {
    Cipher rsa = Cipher.getInstance("RSA/ECB/PKCS1Padding");
    rsa.init(Cipher.ENCRYPT_MODE, daraja.certificate().certificate().getPublicKey());
    return Base64.getEncoder().encodeToString(rsa.doFinal(password.getBytes(StandardCharsets.UTF_8)));
  }

  private static void assertSameShape(HttpResponse<String> response, String example) throws IOException {
    assertThat(shape(JSON.readTree(response.body()))).as(example).isEqualTo(shape(example(example)));
  }

  @Test
  void oauthAnswersTheDocumentedFieldsWithAStringExpiryAndRefusesBadCredentials() throws Exception {
    String basic = Base64.getEncoder().encodeToString("sim-consumer-key:wrong".getBytes(StandardCharsets.UTF_8));
    URI uri = URI.create(daraja.baseUrl() + "/oauth/v1/generate?grant_type=client_credentials");
    HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(uri).header("Authorization", "Basic " + basic)
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(400);
    assertSameShape(refused, "error-invalid-shortcode");
    assertThat(JSON.readTree(refused.body()).path("errorCode").stringValue()).isEqualTo("400.008.01");

    String good = Base64.getEncoder().encodeToString((DarajaSimulator.CONSUMER_KEY + ":"
        + DarajaSimulator.CONSUMER_SECRET).getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> ok = HTTP.send(HttpRequest.newBuilder(uri).header("Authorization", "Basic " + good)
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertSameShape(ok, "oauth-token-string-expiry");
    assertThat(JSON.readTree(ok.body()).path("expires_in").isString()).isTrue();

    HttpResponse<String> grant = HTTP.send(HttpRequest.newBuilder(URI.create(daraja.baseUrl()
        + "/oauth/v1/generate?grant_type=password")).header("Authorization", "Basic " + good).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(JSON.readTree(grant.body()).path("errorCode").stringValue()).isEqualTo("400.008.02");
  }

  @Test
  void aRequestWithoutAValidTokenIsRefusedWithTheErrorBody() throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(daraja.baseUrl()
        + "/mpesa/b2c/v3/paymentrequest")).header("Authorization", "Bearer forged")
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(JSON.readTree(r.body()).path("errorCode").stringValue()).isEqualTo("404.001.03");
  }

  @Test
  void theDocumentedStkPushIsAcceptedAndItsCallbacksHaveTheDocumentedShapes() throws Exception {
    // the documented request is valid as it stands for 174379: its Password is that of its Timestamp
    ObjectNode push = example("stk-push-request").put("CallBackURL", url("/stk"));
    HttpResponse<String> r = post("/mpesa/stkpush/v1/processrequest", push);
    assertThat(r.statusCode()).isEqualTo(200);
    assertSameShape(r, "stk-push-response");
    assertThat(shape(posted("/stk"))).isEqualTo(shape(example("stk-callback-success")));

    daraja.stkResult("254722111111", "1032");
    HttpResponse<String> cancelled = post("/mpesa/stkpush/v1/processrequest", push);
    assertThat(shape(posted("/stk"))).isEqualTo(shape(example("stk-callback-cancelled")));

    String timestamp = LocalDateTime.now(ZoneId.of("Africa/Nairobi"))
        .format(DateTimeFormatter.ofPattern("uuuuMMddHHmmss"));
    ObjectNode query = example("stk-query-request")
        .put("Timestamp", timestamp)
        .put("Password", Base64.getEncoder().encodeToString((DarajaSimulator.SHORTCODE + DarajaSimulator.PASSKEY
            + timestamp).getBytes(StandardCharsets.UTF_8)))
        .put("CheckoutRequestID", JSON.readTree(cancelled.body()).path("CheckoutRequestID").stringValue());
    HttpResponse<String> answer = post("/mpesa/stkpushquery/v1/query", query);
    assertSameShape(answer, "stk-query-response");
    assertThat(JSON.readTree(answer.body()).path("ResultCode").stringValue()).isEqualTo("1032");

    daraja.faults().stkQueriesBeingProcessed(1);
    HttpResponse<String> early = post("/mpesa/stkpushquery/v1/query", query);
    assertThat(early.statusCode()).isEqualTo(500);
    assertSameShape(early, "stk-query-being-processed");
    assertThat(JSON.readTree(early.body()).path("errorMessage").stringValue())
        .isEqualTo(example("stk-query-being-processed").path("errorMessage").stringValue());
  }

  @Test
  void anInvalidShortcodeGetsTheDocumentedErrorBody() throws Exception {
    HttpResponse<String> r = post("/mpesa/stkpush/v1/processrequest",
        example("stk-push-request").put("BusinessShortCode", "999999").put("CallBackURL", url("/stk")));
    assertThat(r.statusCode()).isEqualTo(400);
    JsonNode error = JSON.readTree(r.body());
    JsonNode documented = example("error-invalid-shortcode");
    assertThat(shape(error)).isEqualTo(shape(documented));
    assertThat(error.path("errorCode")).isEqualTo(documented.path("errorCode"));
    assertThat(error.path("errorMessage")).isEqualTo(documented.path("errorMessage"));
  }

  @Test
  void theDocumentedB2cRequestIsPaidAndADuplicateGetsTheDocumentedError() throws Exception {
    ObjectNode b2c = example("b2c-request")
        .put("OriginatorConversationID", UUID.randomUUID().toString())
        .put("SecurityCredential", credential(DarajaSimulator.INITIATOR_PASSWORD))
        .put("PartyA", DarajaSimulator.SHORTCODE)
        .put("QueueTimeOutURL", url("/timeout")).put("ResultURL", url("/result"));
    HttpResponse<String> r = post("/mpesa/b2c/v3/paymentrequest", b2c);
    assertSameShape(r, "b2c-response");
    assertThat(shape(posted("/result"))).isEqualTo(shape(example("b2c-result-success")));

    HttpResponse<String> again = post("/mpesa/b2c/v3/paymentrequest", b2c);
    JsonNode documented = example("error-duplicate-originator");
    assertThat(shape(JSON.readTree(again.body()))).isEqualTo(shape(documented));
    assertThat(JSON.readTree(again.body()).path("errorCode")).isEqualTo(documented.path("errorCode"));
  }

  @Test
  void aSecurityCredentialThatDoesNotDecryptToThePasswordFailsAsDocumented() throws Exception {
    ObjectNode b2c = example("b2c-request")
        .put("OriginatorConversationID", UUID.randomUUID().toString())
        .put("SecurityCredential", credential("a wrong password"))
        .put("PartyA", DarajaSimulator.SHORTCODE)
        .put("QueueTimeOutURL", url("/timeout")).put("ResultURL", url("/result"));
    assertThat(post("/mpesa/b2c/v3/paymentrequest", b2c).statusCode()).isEqualTo(200);
    JsonNode result = posted("/result");
    assertThat(shape(result)).isEqualTo(shape(example("b2c-result-failed")));
    assertThat(result.path("Result").path("ResultCode").asInt()).isEqualTo(2001);
    // the documented example credential is not one made with the simulator's certificate either
    assertThat(post("/mpesa/b2c/v3/paymentrequest", example("b2c-request")
        .put("OriginatorConversationID", UUID.randomUUID().toString()).put("PartyA", DarajaSimulator.SHORTCODE)
        .put("QueueTimeOutURL", url("/timeout")).put("ResultURL", url("/result"))).statusCode()).isEqualTo(200);
    assertThat(posted("/result").path("Result").path("ResultCode").asInt()).isEqualTo(2001);
  }

  @Test
  void theDocumentedB2bPayBillRequestIsPaidWithTheDocumentedResult() throws Exception {
    ObjectNode b2b = example("b2b-paybill-request")
        .put("SecurityCredential", credential(DarajaSimulator.INITIATOR_PASSWORD))
        .put("Initiator", DarajaSimulator.INITIATOR)
        .put("PartyA", DarajaSimulator.SHORTCODE)
        .put("QueueTimeOutURL", url("/timeout")).put("ResultURL", url("/result"));
    HttpResponse<String> r = post("/mpesa/b2b/v1/paymentrequest", b2b);
    assertSameShape(r, "b2b-response");
    assertThat(shape(posted("/result"))).isEqualTo(shape(example("b2b-result-success")));
  }

  @Test
  void theDocumentedTransactionStatusRequestIsRefusedForItsSpacedNamesAndAnsweredOnceCorrected() throws Exception {
    ObjectNode b2c = example("b2c-request")
        .put("OriginatorConversationID", UUID.randomUUID().toString())
        .put("SecurityCredential", credential(DarajaSimulator.INITIATOR_PASSWORD))
        .put("PartyA", DarajaSimulator.SHORTCODE)
        .put("QueueTimeOutURL", url("/timeout")).put("ResultURL", url("/result"));
    post("/mpesa/b2c/v3/paymentrequest", b2c);
    String receipt = posted("/result").path("Result").path("TransactionID").stringValue();

    ObjectNode ts = example("transaction-status-request")
        .put("SecurityCredential", credential(DarajaSimulator.INITIATOR_PASSWORD))
        .put("Initiator", DarajaSimulator.INITIATOR)
        .put("PartyA", DarajaSimulator.SHORTCODE)
        .put("QueueTimeOutURL", url("/timeout")).put("ResultURL", url("/result"));
    HttpResponse<String> spaced = post("/mpesa/transactionstatus/v1/query", ts);
    assertThat(spaced.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(spaced.body()).path("errorMessage").stringValue())
        .isEqualTo("Bad Request - Invalid CommandID");

    ts.remove("Command ID");
    ts.remove("Transaction ID");
    ts.put("CommandID", "TransactionStatusQuery").put("TransactionID", receipt);
    HttpResponse<String> r = post("/mpesa/transactionstatus/v1/query", ts);
    assertSameShape(r, "transaction-status-response");
    JsonNode result = posted("/result");
    // the page's example repeats DebitPartyName for the credit party; the simulator names it CreditPartyName
    @SuppressWarnings("unchecked")
    Map<String, Object> simulated = (Map<String, Object>) shape(result);
    @SuppressWarnings("unchecked")
    Map<String, Object> documented = (Map<String, Object>) shape(example("transaction-status-result"));
    String simulatedText = simulated.toString().replace("entry CreditPartyName, ", "");
    assertThat(simulatedText).isEqualTo(documented.toString());
  }

  @Test
  void theDocumentedAccountBalanceRequestIsAnsweredWithTheDocumentedResult() throws Exception {
    ObjectNode ab = example("account-balance-request")
        .put("SecurityCredential", credential(DarajaSimulator.INITIATOR_PASSWORD))
        .put("Initiator", DarajaSimulator.INITIATOR)
        .put("PartyA", DarajaSimulator.SHORTCODE)
        .put("QueueTimeOutURL", url("/timeout")).put("ResultURL", url("/result"));
    assertSameShape(post("/mpesa/accountbalance/v1/query", ab), "account-balance-response");
    JsonNode result = posted("/result");
    assertThat(shape(result)).isEqualTo(shape(example("account-balance-result")));
    String documentedAccounts = example("account-balance-result").at("/Result/ResultParameters/ResultParameter/0/Value")
        .stringValue().replaceAll("\\|[^&]*", "");
    assertThat(result.at("/Result/ResultParameters/ResultParameter/0/Value").stringValue()
        .replaceAll("\\|[^&]*", "")).isEqualTo(documentedAccounts);
  }

  @Test
  void theDocumentedReversalIsPaidOnceThenRefusedAndABadReceiptGetsTheDocumentedError() throws Exception {
    ObjectNode push = example("stk-push-request").put("CallBackURL", url("/stk"))
        .put("PhoneNumber", "254722111112");
    post("/mpesa/stkpush/v1/processrequest", push);
    String receipt = posted("/stk").at("/Body/stkCallback/CallbackMetadata/Item/1/Value").stringValue();

    ObjectNode reversal = example("reversal-request")
        .put("SecurityCredential", credential(DarajaSimulator.INITIATOR_PASSWORD))
        .put("Initiator", DarajaSimulator.INITIATOR)
        .put("TransactionID", receipt).put("Amount", "1")
        .put("ReceiverParty", DarajaSimulator.SHORTCODE)
        .put("QueueTimeOutURL", url("/timeout")).put("ResultURL", url("/result"));
    assertSameShape(post("/mpesa/reversal/v1/request", reversal), "reversal-response");
    assertThat(shape(posted("/result"))).isEqualTo(shape(example("reversal-result-success")));
    post("/mpesa/reversal/v1/request", reversal);
    JsonNode again = posted("/result");
    assertThat(shape(again)).isEqualTo(shape(example("reversal-result-failed")));
    assertThat(again.at("/Result/ResultCode").stringValue()).isEqualTo("R000001");

    HttpResponse<String> bad = post("/mpesa/reversal/v1/request", reversal.put("TransactionID", "bad id"));
    JsonNode documented = example("error-invalid-transaction-id");
    assertThat(JSON.readTree(bad.body()).path("errorMessage")).isEqualTo(documented.path("errorMessage"));
    assertThat(JSON.readTree(bad.body()).path("errorCode")).isEqualTo(documented.path("errorCode"));
  }

  @Test
  void unknownPathsAndWrongMethodsGetDarajasErrors() throws Exception {
    HttpResponse<String> r = post("/mpesa/nothing/v1/here", JSON.createObjectNode());
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(r.body()).path("errorCode").stringValue()).isEqualTo("404.001.01");
    HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(URI.create(daraja.baseUrl()
        + "/mpesa/b2c/v3/paymentrequest")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
    HttpResponse<String> notJson = HTTP.send(HttpRequest.newBuilder(URI.create(daraja.baseUrl()
        + "/mpesa/b2c/v3/paymentrequest")).header("Authorization", "Bearer " + token())
        .POST(HttpRequest.BodyPublishers.ofString("not json")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(JSON.readTree(notJson.body()).path("errorCode").stringValue()).isEqualTo("400.002.05");
  }

  @Test
  void aFractionalAmountOrALongAccountReferenceIsRefused() throws Exception {
    ObjectNode push = example("stk-push-request").put("CallBackURL", url("/stk"));
    assertThat(post("/mpesa/stkpush/v1/processrequest", push.deepCopy().put("Amount", "1.5")).body())
        .contains("Bad Request - Invalid Amount");
    assertThat(post("/mpesa/stkpush/v1/processrequest", push.deepCopy().put("AccountReference", "1234567890123"))
        .body()).contains("Bad Request - Invalid AccountReference");
    assertThat(post("/mpesa/stkpush/v1/processrequest", push.deepCopy().put("TransactionDesc", "12345678901234"))
        .body()).contains("Bad Request - Invalid TransactionDesc");
  }
}
