package dev.lipa.collections.stk.rail.daraja;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.lipa.collections.stk.OverdueStkPushes;
import dev.lipa.collections.stk.rail.StkPrompt;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.environment.StackEnvironment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.ids.OrganisationId;
import dev.lipa.common.ids.RequestId;
import dev.lipa.common.testsupport.SharedInfraInitializer;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import dev.lipa.common.testsupport.TopicRecorder;
import dev.lipa.daraja.simulator.DarajaSimulator;
import dev.lipa.daraja.simulator.Faults;
import dev.lipa.rails.daraja.credential.Fingerprints;
import dev.lipa.rails.daraja.tokens.DarajaTokenStore;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Date;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A live collections-service (its own Spring context) with the Daraja rail against the Daraja simulator over real
 * sockets: the operator's STK shortcodes, pushes accepted, refused, UNKNOWN, after a token expiry and under a spike
 * arrest, Daraja's callbacks, and the reconciliation of pushes whose callback never came. Shortcodes are shared state
 * of the context: each test sets the ones it needs first. The overdue sweep never runs on its own timer here: a test
 * makes its pushes overdue and sweeps when it wants to.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.environment=live",
    // this context runs beside the module's shared sandbox one, on the same broker: its other listeners stay stopped
    // (they would share the sandbox context's consumer groups and take its records); the Daraja rail's own starts
    "spring.kafka.listener.auto-startup=false",
    "lipa.organisations.directory.group-id=collections-daraja-tests-organisations",
    "spring.mongodb.database=lipa-collections-daraja-tests",
    "lipa.collections.sandbox.enabled=false",
    "lipa.collections.daraja.request-timeout=2s",
    "lipa.collections.daraja.callback-base-url=" + DarajaStkRailIntegrationTests.PLATFORM,
    "lipa.collections.daraja.callback-sources=196.201.214.0/24, 196.201.212.127",
    "lipa.operator.token=" + DarajaStkRailIntegrationTests.OPERATOR_TOKEN,
    "lipa.collections.overdue.sweep-interval=1h",
    "lipa.collections.reconciliation.max-questions=3",
    "lipa.collections.reconciliation.first-pause=1ms",
    "lipa.collections.reconciliation.max-pause=1ms"})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
class DarajaStkRailIntegrationTests {

  /** The platform's public address as Daraja is told it (nothing listens there: tests deliver what Daraja posted). */
  static final String PLATFORM = "http://127.0.0.1:1/platform";
  private static final Map<String, String> FROM_DARAJA = Map.of("X-Forwarded-For", "196.201.214.200",
      "Content-Type", "application/json");
  static final String OPERATOR_TOKEN = "collections-daraja-tests-operator-token-0123";
  private static final Map<String, String> OPERATOR = Map.of("X-Operator-Token", OPERATOR_TOKEN);
  private static final String SHORTCODES = "/admin/v1/daraja/stk-shortcodes";
  /** The merchant path of a push (the live stack's own family once the stack serves it). */
  private static final String NEW = "/api/v1/stk/new";
  private static final String PUSH = "/mpesa/stkpush/v1/processrequest";
  private static final String OAUTH = "/oauth/v1/generate";
  private static final String OTHER_SHORTCODE = "600111";
  private static final String OTHER_PASSKEY = "other-passkey-0123456789abcdef";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final AtomicInteger PHONES = new AtomicInteger(100);

  private static final DarajaSimulator daraja = start();

  @LocalServerPort
  int port;

  @Autowired
  MongoDatabase database;

  @Autowired
  OverdueStkPushes overdue;

  @Autowired
  DarajaStkRail rail;

  private static DarajaSimulator start() {
    try {
      return DarajaSimulator.start().registerShortcode(OTHER_SHORTCODE, OTHER_PASSKEY, new BigDecimal("1000"));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @DynamicPropertySource
  static void darajaAddress(DynamicPropertyRegistry registry) {
    registry.add("lipa.collections.daraja.base-url", () -> daraja.baseUrl().toString());
  }

  @BeforeAll
  static void recordTopics() {
    TopicRecorder.start();
  }

  @AfterAll
  static void stop() {
    daraja.close();
  }

  @BeforeEach
  void clean() {
    resetDaraja();
  }

  /** The simulator forgets its tokens: so does the service's shared store, or the next request would pay a 401. */
  private void resetDaraja() {
    daraja.reset();
    database.getCollection(DarajaTokenStore.COLLECTION).deleteMany(new Document());
  }

  private TestHttp http() {
    return new TestHttp("http://127.0.0.1:" + port);
  }

  private static Map<String, String> json(Map<String, String> headers) {
    Map<String, String> all = new HashMap<>(headers);
    all.put("Content-Type", "application/json");
    return all;
  }

  private TestHttp.Response put(String shortcode, String body) {
    return http().send("PUT", SHORTCODES + "/" + shortcode, body, json(OPERATOR));
  }

  private static String paybill(String key, String secret, String passkey, boolean active) {
    return """
        {"transactionType":"paybill","consumerKey":"%s","consumerSecret":"%s","passkey":"%s","active":%s}"""
        .formatted(key, secret, passkey, active);
  }

  /** Makes {@code shortcode} the only active one, with these secrets. */
  private void activate(String shortcode, String body) {
    deactivateAll();
    TestHttp.Response response = put(shortcode, body);
    assertThat(response.status()).as(response.body()).isIn(200, 201);
  }

  private void deactivateAll() {
    for (JsonNode s : http().get(SHORTCODES, OPERATOR).json().get("data")) {
      if (s.get("active").booleanValue()) {
        assertThat(put(s.get("shortcode").stringValue(), "{\"active\":false}").status()).isEqualTo(200);
      }
    }
  }

  private void activateSimulatorShortcode() {
    activate(DarajaSimulator.SHORTCODE, paybill(DarajaSimulator.CONSUMER_KEY, DarajaSimulator.CONSUMER_SECRET,
        DarajaSimulator.PASSKEY, true));
  }

  private static String phone() {
    return String.format("2547%08d", PHONES.incrementAndGet());
  }

  private static Map<String, String> merchant(String organisationId) {
    return TestHttp.bearer(TestIssuer.shared().accessToken(organisationId, Environment.LIVE));
  }

  private static String push(String phone, String amount) {
    return """
        {"description":"Order 42","phoneNumber":"%s","amount":%s,"accountReference":"INV42",
         "callbackUrl":"https://merchant.example/callbacks/stk"}""".formatted(phone, amount);
  }

  private String create(String organisationId, String phone) {
    TestHttp.Response response = http().postJson(NEW, push(phone, "10"), merchant(organisationId));
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    return response.json().get("data").get("requestId").stringValue();
  }

  private Document logEntry(String requestId) {
    return database.getCollection(StkRequestLog.COLLECTION).find(Filters.eq("_id", requestId)).first();
  }

  private String status(String requestId) {
    Document push = database.getCollection("stk_pushes").find(Filters.eq("_id", requestId)).first();
    return push == null ? null : push.getString("status");
  }

  private static void await(BooleanSupplier condition) {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (!condition.getAsBoolean()) {
      assertThat(Instant.now()).as("condition met in time").isBefore(deadline);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  @Nested
  class PutShortcode {

    @Test
    void storesTheSecretsSealedAndShowsOnlyWhetherTheyAreSetAndTheirFingerprints() {
      String shortcode = "5" + (100000 + PHONES.incrementAndGet());
      TestHttp.Response response = put(shortcode, paybill("key-" + shortcode, "secret-" + shortcode,
          "passkey-" + shortcode, false));

      assertThat(response.status()).isEqualTo(201);
      assertThat(response.body()).doesNotContain("key-" + shortcode, "secret-" + shortcode, "passkey-" + shortcode);
      JsonNode data = response.json().get("data");
      assertThat(data.get("transactionType").stringValue()).isEqualTo("paybill");
      assertThat(data.get("secrets").get("passkey").get("set").booleanValue()).isTrue();
      assertThat(data.get("secrets").get("passkey").get("fingerprint").stringValue())
          .isEqualTo(Fingerprints.of("passkey-" + shortcode));
      Document stored = database.getCollection(StkShortcodeStore.COLLECTION).find(Filters.eq("_id", shortcode))
          .first();
      assertThat(stored.toJson()).doesNotContain("key-" + shortcode, "secret-" + shortcode, "passkey-" + shortcode);
      assertThat(stored.getString("passkey")).startsWith("lipa-sealed:v1:");
      assertThat(http().get(SHORTCODES + "/" + shortcode, OPERATOR).body()).doesNotContain("passkey-" + shortcode);
    }

    @Test
    void aChangeKeepsTheSecretsItDoesNotName() {
      String shortcode = "5" + (100000 + PHONES.incrementAndGet());
      put(shortcode, paybill("k1", "s1", "p1", false));

      TestHttp.Response changed = put(shortcode, "{\"consumerSecret\":\"s2\"}");

      assertThat(changed.status()).isEqualTo(200);
      JsonNode secrets = changed.json().get("data").get("secrets");
      assertThat(secrets.get("consumerKey").get("fingerprint").stringValue()).isEqualTo(Fingerprints.of("k1"));
      assertThat(secrets.get("consumerSecret").get("fingerprint").stringValue()).isEqualTo(Fingerprints.of("s2"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"initiatorPassword", "password", "Password", "INITIATOR_PASSWORD", "passwordHash"})
    void neverAcceptsAPasswordUnderAnySpelling(String field) {
      String shortcode = "5" + (100000 + PHONES.incrementAndGet());
      TestHttp.Response response = put(shortcode, """
          {"transactionType":"paybill","consumerKey":"k","consumerSecret":"s","passkey":"p","%s":"hunter2"}"""
          .formatted(field));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").get(field).get(0).stringValue()).contains("never accepted");
      assertThat(response.body()).doesNotContain("hunter2");
      assertThat(http().get(SHORTCODES + "/" + shortcode, OPERATOR).status()).isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1234", "1234567890", "17437a", "١٧٤٣٧٩", "%20174379"})
    void refusesAShortcodeThatIsNotFiveToNineDigits(String shortcode) {
      TestHttp.Response response = put(shortcode, paybill("k", "s", "p", false));

      assertThat(response.status()).isEqualTo(400);
    }

    @Test
    void refusesABuyGoodsShortcodeWithoutItsTillAndAnUnknownType() {
      String shortcode = "5" + (100000 + PHONES.incrementAndGet());
      TestHttp.Response noTill = put(shortcode, """
          {"transactionType":"buy-goods","consumerKey":"k","consumerSecret":"s","passkey":"p"}""");
      TestHttp.Response till = put(shortcode, """
          {"transactionType":"till","consumerKey":"k","consumerSecret":"s","passkey":"p"}""");
      TestHttp.Response spaces = put(shortcode, """
          {"transactionType":"paybill","consumerKey":" k","consumerSecret":"s","passkey":"p"}""");

      assertThat(noTill.status()).isEqualTo(400);
      assertThat(noTill.json().get("errors").has("partyB")).isTrue();
      assertThat(till.json().get("errors").has("transactionType")).isTrue();
      assertThat(spaces.json().get("errors").has("consumerKey")).isTrue();
      assertThat(http().get(SHORTCODES + "/" + shortcode, OPERATOR).status()).isEqualTo(404);
    }

    @Test
    void keepsAtMostOneShortcodeActive() {
      activateSimulatorShortcode();

      TestHttp.Response second = put(OTHER_SHORTCODE, paybill("k", "s", OTHER_PASSKEY, true));

      assertThat(second.status()).isEqualTo(409);
      assertThat(http().get(SHORTCODES, OPERATOR).json().get("data").valueStream()
          .filter(s -> s.get("active").booleanValue()).count()).isEqualTo(1);
    }

    @Test
    void refusesACallerWithoutTheOperatorToken() {
      String shortcode = "5" + (100000 + PHONES.incrementAndGet());
      TestHttp.Response merchant = http().send("PUT", SHORTCODES + "/" + shortcode, paybill("k", "s", "p", true),
          json(merchant(UUID.randomUUID().toString())));
      TestHttp.Response none = http().send("PUT", SHORTCODES + "/" + shortcode, paybill("k", "s", "p", true),
          json(Map.of()));

      assertThat(merchant.status()).isEqualTo(401);
      assertThat(none.status()).isEqualTo(401);
      assertThat(http().get(SHORTCODES + "/" + shortcode, OPERATOR).status()).isEqualTo(404);
    }
  }

  @Nested
  class StkPushThroughDaraja {

    @Test
    void sendsThePushWithTheActiveShortcodeAndKeepsDarajasIdsForItsResult() {
      activateSimulatorShortcode();
      String phone = phone();

      String requestId = create(UUID.randomUUID().toString(), phone);

      await(() -> logEntry(requestId) != null && "ACCEPTED".equals(logEntry(requestId).getString("state")));
      List<DarajaSimulator.Received> pushes = daraja.received(PUSH);
      assertThat(pushes).hasSize(1);
      JsonNode sent = JSON.readTree(pushes.get(0).body());
      assertThat(sent.get("BusinessShortCode").asString()).isEqualTo(DarajaSimulator.SHORTCODE);
      assertThat(sent.get("Amount").asLong()).isEqualTo(10);
      assertThat(sent.get("PhoneNumber").asString()).isEqualTo(phone);
      assertThat(sent.get("AccountReference").asString()).isEqualTo("INV42");
      assertThat(sent.get("TransactionDesc").asString()).isEqualTo("Order 42");
      assertThat(sent.get("CallBackURL").asString()).startsWith("http://127.0.0.1:1/platform/daraja/v1/stk/")
          .endsWith("/" + requestId);
      assertThat(logEntry(requestId).getString("checkoutRequestId")).isNotBlank();
      assertThat(status(requestId)).isEqualTo("PENDING");
    }

    @Test
    void refusesCentsBeforeAnythingIsStoredOrSent() {
      activateSimulatorShortcode();
      String organisation = UUID.randomUUID().toString();

      TestHttp.Response response = http().postJson(NEW, push(phone(), "10.50"), merchant(organisation));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").get("amount").get(0).stringValue()).contains("whole number");
      assertThat(database.getCollection("stk_pushes").countDocuments(Filters.eq("organisationId", organisation)))
          .isZero();
      assertThat(daraja.received(PUSH)).isEmpty();
    }

    @Test
    void answers503WhenNoShortcodeIsActive() {
      deactivateAll();
      String organisation = UUID.randomUUID().toString();

      TestHttp.Response response = http().postJson(NEW, push(phone(), "10"), merchant(organisation));

      assertThat(response.status()).isEqualTo(503);
      assertThat(response.json().get("message").stringValue()).contains("no live rail is configured");
      assertThat(database.getCollection("stk_pushes").countDocuments(Filters.eq("organisationId", organisation)))
          .isZero();
    }

    @Test
    void failsAPushDarajaRefusesAndSendsItOnce() {
      activate(DarajaSimulator.SHORTCODE, paybill(DarajaSimulator.CONSUMER_KEY, DarajaSimulator.CONSUMER_SECRET,
          "not-the-passkey", true));

      String requestId = create(UUID.randomUUID().toString(), phone());

      await(() -> "FAILED".equals(status(requestId)));
      assertThat(logEntry(requestId).getString("state")).isEqualTo("REFUSED");
      assertThat(daraja.received(PUSH)).hasSize(1);
    }

    @Test
    void getsAFreshTokenAfterTheOldOneExpired() {
      activateSimulatorShortcode();
      String first = create(UUID.randomUUID().toString(), phone());
      await(() -> logEntry(first) != null && "ACCEPTED".equals(logEntry(first).getString("state")));
      daraja.expireTokens();

      String second = create(UUID.randomUUID().toString(), phone());

      await(() -> logEntry(second) != null && "ACCEPTED".equals(logEntry(second).getString("state")));
      assertThat(daraja.received(OAUTH)).hasSize(2);
      assertThat(daraja.received(PUSH)).hasSize(3); // the second push once refused for its token, then accepted
      Document shared = database.getCollection(DarajaTokenStore.COLLECTION).find().first();
      assertThat(shared.getString("token")).as("a bearer token is a credential").startsWith("lipa-sealed:v1:");
      assertThat(shared.get("generation", Number.class).longValue()).isEqualTo(2);
    }

    @Test
    void leavesAPushPendingAndNeverResendsItUnderASpikeArrest() throws InterruptedException {
      activateSimulatorShortcode();
      daraja.faults().spikeArrest(true);

      String requestId = create(UUID.randomUUID().toString(), phone());

      await(() -> logEntry(requestId) != null && "UNKNOWN".equals(logEntry(requestId).getString("state")));
      Thread.sleep(500);
      assertThat(daraja.received(PUSH)).hasSize(1);
      assertThat(status(requestId)).isEqualTo("PENDING");
    }
  }

  /** What Daraja posted to the push's CallBackURL, and that URL's path on this service. */
  private record Posted(String path, String body) {
  }

  private Posted callbackOf(String requestId) {
    await(() -> daraja.posted().stream().anyMatch(p -> p.url().getPath().endsWith("/" + requestId)));
    DarajaSimulator.Posted posted = daraja.posted().stream()
        .filter(p -> p.url().getPath().endsWith("/" + requestId)).findFirst().orElseThrow();
    return new Posted(posted.url().toString().substring(PLATFORM.length()), posted.body());
  }

  private String accepted(String phone) {
    activateSimulatorShortcode();
    String requestId = create(UUID.randomUUID().toString(), phone);
    await(() -> logEntry(requestId) != null && "ACCEPTED".equals(logEntry(requestId).getString("state")));
    return requestId;
  }

  private Document push(String requestId) {
    return database.getCollection("stk_pushes").find(Filters.eq("_id", requestId)).first();
  }

  /** The body with one CallbackMetadata item's value changed. */
  private static String withItem(String body, String name, String value) {
    JsonNode tree = JSON.readTree(body);
    for (JsonNode item : tree.path("Body").path("stkCallback").path("CallbackMetadata").path("Item")) {
      if (name.equals(item.path("Name").asString())) {
        ((tools.jackson.databind.node.ObjectNode) item).put("Value", new BigDecimal(value));
      }
    }
    return JSON.writeValueAsString(tree);
  }

  @Nested
  class DarajaCallback {

    @Test
    void settlesThePushOnceWhateverTheRepeats() {
      String requestId = accepted(phone());
      Posted callback = callbackOf(requestId);

      TestHttp.Response first = http().postJson(callback.path(), callback.body(), FROM_DARAJA);
      Document settled = push(requestId);
      TestHttp.Response again = http().postJson(callback.path(), callback.body(), FROM_DARAJA);

      assertThat(first.status()).isEqualTo(200);
      assertThat(first.json().get("ResultCode").asInt()).isZero();
      assertThat(again.status()).isEqualTo(200);
      assertThat(settled.getString("status")).isEqualTo("SUCCESS");
      assertThat(push(requestId)).isEqualTo(settled);
    }

    @Test
    void failsThePushTheCustomerCancelled() {
      String phone = phone();
      daraja.stkResult(phone, "1032");
      String requestId = accepted(phone);
      Posted callback = callbackOf(requestId);

      assertThat(http().postJson(callback.path(), callback.body(), FROM_DARAJA).status()).isEqualTo(200);

      assertThat(status(requestId)).isEqualTo("FAILED");
    }

    @ParameterizedTest
    @ValueSource(strings = {"203.0.113.9", "196.201.213.200", "196.201.212.128", "::ffff:203.0.113.9"})
    void refusesACallbackFromAnAddressNotOnTheAllowList(String source) {
      String requestId = accepted(phone());
      Posted callback = callbackOf(requestId);

      TestHttp.Response response = http().postJson(callback.path(), callback.body(),
          Map.of("X-Forwarded-For", source, "Content-Type", "application/json"));

      assertThat(response.status()).isEqualTo(403);
      assertThat(status(requestId)).isEqualTo("PENDING");
    }

    @Test
    void refusesAGuessedSegmentAndAPushOfAnotherAddress() {
      String requestId = accepted(phone());
      String other = accepted(phone());
      Posted callback = callbackOf(requestId);
      String segment = callback.path().split("/")[4];

      TestHttp.Response guessed = http().postJson(callback.path().replace(segment, segment.substring(1) + "A"),
          callback.body(), FROM_DARAJA);
      TestHttp.Response upperCase = http().postJson(callback.path().replace(segment, segment.toUpperCase()),
          callback.body(), FROM_DARAJA);
      TestHttp.Response otherPush = http().postJson(callback.path().replace(requestId, other), callback.body(),
          FROM_DARAJA);

      assertThat(guessed.status()).isEqualTo(404);
      assertThat(upperCase.status()).isEqualTo(404);
      assertThat(otherPush.status()).isEqualTo(400); // another push's CheckoutRequestID
      assertThat(status(requestId)).isEqualTo("PENDING");
      assertThat(status(other)).isEqualTo("PENDING");
    }

    @Test
    void refusesAPaymentWhoseAmountOrPhoneIsNotThePushs() {
      String phone = phone();
      String requestId = accepted(phone);
      Posted callback = callbackOf(requestId);

      TestHttp.Response amount = http().postJson(callback.path(), withItem(callback.body(), "Amount", "1.00"),
          FROM_DARAJA);
      TestHttp.Response otherPhone = http().postJson(callback.path(),
          callback.body().replace(phone, "254700999999"), FROM_DARAJA);
      TestHttp.Response notDaraja = http().postJson(callback.path(), "{\"Body\":{}}", FROM_DARAJA);

      assertThat(amount.status()).isEqualTo(400);
      assertThat(otherPhone.status()).isEqualTo(400);
      assertThat(notDaraja.status()).isEqualTo(400);
      assertThat(status(requestId)).isEqualTo("PENDING");
    }
  }

  private static final String QUERY = "/mpesa/stkpushquery/v1/query";

  /** Makes the push overdue: created ten minutes ago, as if its callback had had all the time it needs. */
  private void ageOut(String requestId) {
    database.getCollection("stk_pushes").updateOne(Filters.eq("_id", requestId),
        Updates.set("createdAt", Date.from(Instant.now().minus(Duration.ofMinutes(10)))));
  }

  /** The STK queries Daraja received about this CheckoutRequestID. */
  private static List<DarajaSimulator.Received> queriesAbout(String checkoutRequestId) {
    return daraja.received(QUERY).stream().filter(q -> q.body().contains("\"" + checkoutRequestId + "\"")).toList();
  }

  private static String liveCollections() {
    return StackEnvironment.LIVE.topic(Topics.COLLECTIONS);
  }

  /** One run of the overdue sweep, a little after the last (the pauses between questions are 1 ms here). */
  private void sweep() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    overdue.sweep();
  }

  @Nested
  class Reconciliation {

    /**
     * Every push the other tests left PENDING is settled or left to operators first, so that a sweep here asks about
     * this test's pushes only (the simulator's scripted answers are for them). The simulated customer then answers at
     * once: a test ages its push as if the callback had had all the time it needs, and a sweep within the simulator's
     * usual 20 ms of the push would otherwise be told "being processed" (seen in CI: a push left PENDING).
     */
    @BeforeEach
    void nothingElseIsOverdue() {
      database.getCollection("stk_pushes").updateMany(Filters.eq("status", "PENDING"),
          Updates.set("createdAt", Date.from(Instant.now().minus(Duration.ofHours(1)))));
      for (int i = 0; i < 4; i++) {
        sweep(); // three questions each at most
      }
      resetDaraja();
      daraja.faults().customerDelay(Duration.ZERO);
    }

    @Test
    void settlesAPaidPushWhoseCallbackNeverCameWithoutAReceiptAndSaysSo() {
      daraja.faults().callbacks(Faults.CallbackMode.NEVER);
      String requestId = accepted(phone());
      String checkoutRequestId = logEntry(requestId).getString("checkoutRequestId");
      ageOut(requestId);

      sweep();

      Document settled = push(requestId);
      assertThat(settled.getString("status")).isEqualTo("SUCCESS");
      assertThat(settled.getInteger("resultCode")).isZero();
      assertThat(settled.get("receipt")).isNull();
      assertThat(settled.getString("checkoutRequestId")).isEqualTo(checkoutRequestId);
      assertThat(logEntry(requestId).getString("settledBy")).isEqualTo("STK_QUERY");
      assertThat(queriesAbout(checkoutRequestId)).hasSize(1);
      JsonNode event = JSON.readTree(TopicRecorder.once(liveCollections(), requestId, "stk.succeeded").getFirst()
          .value());
      assertThat(event.path("data").path("receipt").isNull()).isTrue();
      assertThat(daraja.posted()).isEmpty();
    }

    @Test
    void failsAPushWhoseCallbackNeverCameWithDarajasResultCode() {
      String phone = phone();
      daraja.stkResult(phone, "1032").faults().callbacks(Faults.CallbackMode.NEVER);
      String requestId = accepted(phone);
      ageOut(requestId);

      sweep();

      Document settled = push(requestId);
      assertThat(settled.getString("status")).isEqualTo("FAILED");
      assertThat(settled.getInteger("resultCode")).isEqualTo(1032);
      assertThat(settled.getString("resultDescription")).isEqualTo("Request cancelled by user");
    }

    @Test
    void theBeingProcessedAnswersSettleNothingAndThePushIsAskedAgain() {
      daraja.faults().callbacks(Faults.CallbackMode.NEVER).stkQueriesBeingProcessed(1)
          .stkQueriesStillUnderProcessing(1);
      String requestId = accepted(phone());
      String checkoutRequestId = logEntry(requestId).getString("checkoutRequestId");
      ageOut(requestId);

      sweep();
      String afterBeingProcessed = status(requestId);
      sweep();
      String afterStillUnderProcessing = status(requestId);
      sweep();

      assertThat(afterBeingProcessed).isEqualTo("PENDING");
      assertThat(afterStillUnderProcessing).as("ResultCode 4999 is no failure").isEqualTo("PENDING");
      assertThat(status(requestId)).isEqualTo("SUCCESS");
      assertThat(queriesAbout(checkoutRequestId)).hasSize(3);
    }

    @Test
    void aCallbackAfterTheQuerySettledThePushChangesNothingAndItsReceiptIsKeptForOperators() {
      String requestId = accepted(phone());
      Posted callback = callbackOf(requestId); // Daraja posted it; it reaches us only now, after the query
      ageOut(requestId);
      sweep();
      Document settled = push(requestId);

      TestHttp.Response late = http().postJson(callback.path(), callback.body(), FROM_DARAJA);

      assertThat(late.status()).isEqualTo(200);
      assertThat(push(requestId)).isEqualTo(settled);
      assertThat(settled.getString("status")).isEqualTo("SUCCESS");
      assertThat(logEntry(requestId).getString("lateReceipt"))
          .isEqualTo(JSON.readTree(callback.body()).path("Body").path("stkCallback").path("CallbackMetadata")
              .path("Item").get(1).path("Value").asString());
      assertThat(TopicRecorder.once(liveCollections(), requestId, "stk.succeeded")).hasSize(1);
    }

    @Test
    void aPushItsCallbackSettledIsNeverQueried() {
      String requestId = accepted(phone());
      Posted callback = callbackOf(requestId);
      assertThat(http().postJson(callback.path(), callback.body(), FROM_DARAJA).status()).isEqualTo(200);
      Document settled = push(requestId);
      ageOut(requestId);

      sweep();

      assertThat(queriesAbout(logEntry(requestId).getString("checkoutRequestId"))).isEmpty();
      assertThat(push(requestId).getString("receipt")).isEqualTo(settled.getString("receipt")).isNotNull();
    }

    @Test
    void aCallbackAndAQueryAnswerRacingSettleThePushOnce() {
      String phone = phone();
      String requestId = accepted(phone);
      Posted callback = callbackOf(requestId);
      StkPrompt prompt = new StkPrompt(OrganisationId.of(push(requestId).getString("organisationId")),
          RequestId.parse(requestId), phone, new BigDecimal("10"), "KSH");

      CompletableFuture<Void> query = CompletableFuture.runAsync(() -> rail.queryOutcome(prompt));
      CompletableFuture<Void> secondQuery = CompletableFuture.runAsync(() -> rail.queryOutcome(prompt));
      TestHttp.Response delivered = http().postJson(callback.path(), callback.body(), FROM_DARAJA);
      CompletableFuture.allOf(query, secondQuery).join();

      assertThat(delivered.status()).isEqualTo(200);
      assertThat(status(requestId)).isEqualTo("SUCCESS");
      assertThat(TopicRecorder.once(liveCollections(), requestId, "stk.succeeded")).hasSize(1);
      assertThat(TopicRecorder.records(StackEnvironment.LIVE.topic(Topics.CALLBACKS), requestId, "callback.requested"))
          .hasSize(1);
    }

    @Test
    void anAnswerForWhatWasNotSentSettlesNothing() {
      daraja.faults().callbacks(Faults.CallbackMode.NEVER);
      String requestId = accepted(phone());
      // the request log says Daraja was asked for another amount than the push's: its answer is not this push's
      database.getCollection(StkRequestLog.COLLECTION).updateOne(Filters.eq("_id", requestId),
          Updates.set("amount", new org.bson.types.Decimal128(new BigDecimal("20"))));
      ageOut(requestId);

      sweep();

      assertThat(status(requestId)).isEqualTo("PENDING");
    }

    @Test
    void aPushWhoseAcknowledgementWasLostIsLeftToOperatorsAndItsLateCallbackStillSettlesIt() {
      activateSimulatorShortcode();
      daraja.faults().answerAfter(Duration.ofMillis(2500)); // past the 2 s request timeout: UNKNOWN, yet processed
      String requestId = create(UUID.randomUUID().toString(), phone());
      await(() -> logEntry(requestId) != null && "UNKNOWN".equals(logEntry(requestId).getString("state")));
      daraja.faults().answerAfter(Duration.ZERO);
      Posted callback = callbackOf(requestId);
      ageOut(requestId);

      for (int i = 0; i < 4; i++) {
        sweep();
      }
      JsonNode listed = http().get("/admin/v1/daraja/stk-pushes/unresolved", OPERATOR).json().get("data");

      String checkoutRequestId = JSON.readTree(callback.body()).path("Body").path("stkCallback")
          .path("CheckoutRequestID").asString();
      assertThat(queriesAbout(checkoutRequestId)).as("we never learnt the CheckoutRequestID to ask about").isEmpty();
      assertThat(status(requestId)).isEqualTo("PENDING");
      JsonNode unresolved = listed.valueStream().filter(p -> p.get("requestId").asString().equals(requestId))
          .findFirst().orElseThrow();
      assertThat(unresolved.get("darajaState").asString()).isEqualTo("UNKNOWN");
      assertThat(unresolved.get("questions").asInt()).isEqualTo(3);
      assertThat(unresolved.get("amount").decimalValue()).isEqualByComparingTo("10");
      assertThat(unresolved.get("why").asString()).contains("acknowledgement was lost");

      TestHttp.Response late = http().postJson(callback.path(), callback.body(), FROM_DARAJA);

      assertThat(late.status()).isEqualTo(200);
      assertThat(push(requestId).getString("status")).isEqualTo("SUCCESS");
      assertThat(push(requestId).getString("receipt")).isNotBlank();
      assertThat(http().get("/admin/v1/daraja/stk-pushes/unresolved", OPERATOR).body()).doesNotContain(requestId);
    }

    @Test
    void theUnresolvedListIsForOperatorsOnly() {
      assertThat(http().get("/admin/v1/daraja/stk-pushes/unresolved", Map.of()).status()).isEqualTo(401);
      assertThat(http().get("/admin/v1/daraja/stk-pushes/unresolved", merchant(UUID.randomUUID().toString()))
          .status()).isEqualTo(401);
    }
  }
}
