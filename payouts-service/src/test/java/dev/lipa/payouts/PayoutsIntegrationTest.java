package dev.lipa.payouts;

import dev.lipa.common.testsupport.TopicRecorder;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.organisations.OrganisationDirectory;
import dev.lipa.common.organisations.OrganisationProfile;
import dev.lipa.common.testsupport.StoreProxy;
import dev.lipa.common.testsupport.StoreProxyInitializer;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;

/**
 * The one Spring context of this module's integration tests: the real service on a random port over the shared
 * broker and store, the store reached through the {@link StoreProxy} so a test can fail it under the service. A
 * sandbox KSH account starts with 1000 here (so the concurrency proof needs no top-up); tests use a fresh organisation
 * each instead of cleaning the store.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.payouts.sandbox.outcome-delay=400ms",
    "lipa.payouts.overdue.after=5s",
    "lipa.payouts.overdue.sweep-interval=500ms",
    "lipa.payouts.outbox.sweep-interval=1s",
    // an acknowledged event's removal rides along the next change within 1 s (the outcome comes after 400 ms), or is
    // written alone: a completed record's outbox is empty after 1 s instead of 5
    "lipa.payouts.outbox.ack-delay=1s",
    "lipa.payouts.outbox.grace-period=15s",
    "lipa.payouts.ledger.opening-float.KSH=1000",
    "lipa.payouts.ledger.opening-float.TZS=50000",
    "lipa.payouts.ledger.opening-float.UGX=50000",
    // short, so that the orphaned-reservation repair can be watched; a payout's insert follows its reservation in ms
    "lipa.payouts.ledger.repair-interval=500ms",
    "lipa.payouts.ledger.orphan-after=2s",
    "lipa.operator.token=" + PayoutsIntegrationTest.OPERATOR_TOKEN})
@ContextConfiguration(initializers = StoreProxyInitializer.class)
public abstract class PayoutsIntegrationTest {

  protected static final String SEND_MONEY = "/api/sandbox/v1/send-money";
  protected static final String TILL = "/api/sandbox/v1/till";
  protected static final String PAYBILL = "/api/sandbox/v1/paybill";
  protected static final String BALANCE = "/api/sandbox/v1/balance";
  protected static final String OPERATOR_TOKEN = "payouts-tests-operator-token-0123456789";
  protected static final Map<String, String> OPERATOR = Map.of("X-Operator-Token", OPERATOR_TOKEN);

  @LocalServerPort
  protected int port;

  @Autowired
  protected MongoDatabase database;

  @Autowired
  protected OrganisationDirectory directory;

  @BeforeAll
  static void record() {
    TopicRecorder.start();
  }

  protected TestHttp http() {
    return new TestHttp("http://127.0.0.1:" + port);
  }

  protected static String newOrganisation() {
    return UUID.randomUUID().toString();
  }

  /** Registers {@code child} as a sub-account of {@code parent} in this service's copy of the profiles. */
  protected void subAccount(String child, String parent) {
    directory.apply(new OrganisationProfile(child, 7, "Sub", "254700000000", "sub@example.com", "SUB", "sandbox",
        null, parent, false, List.of(), null, null, Instant.now(), Instant.now(), 1));
  }

  protected static Map<String, String> as(String organisationId) {
    return TestHttp.bearer(TestIssuer.shared().accessToken(organisationId));
  }

  /** The caller's headers with an {@code Idempotency-Key}. */
  protected static Map<String, String> as(String organisationId, String idempotencyKey) {
    Map<String, String> headers = new HashMap<>(as(organisationId));
    headers.put("Idempotency-Key", idempotencyKey);
    return headers;
  }

  /** Sends {@code count} requests at once (released together by a latch) and returns every answer. */
  protected static List<TestHttp.Response> concurrently(int count, Callable<TestHttp.Response> call) {
    ExecutorService pool = Executors.newFixedThreadPool(count);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<TestHttp.Response>> answers = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        answers.add(pool.submit(() -> {
          start.await();
          return call.call();
        }));
      }
      start.countDown();
      List<TestHttp.Response> responses = new ArrayList<>();
      for (Future<TestHttp.Response> answer : answers) {
        responses.add(answer.get(60, TimeUnit.SECONDS));
      }
      return responses;
    } catch (Exception e) {
      throw new AssertionError(e);
    } finally {
      pool.shutdownNow();
    }
  }

  protected static String kenyan(String phone, int amount) {
    return """
        {"phoneNumber":"%s","amount":%d,"remarks":"salary","occasion":"June",
         "callbackUrl":"https://merchant.example/callbacks/b2c"}""".formatted(phone, amount);
  }

  protected String create(String path, String organisationId, String body) {
    TestHttp.Response response = http().postJson(path, body, as(organisationId));
    if (response.status() != 201) {
      throw new AssertionError("expected 201, got " + response.status() + ": " + response.body());
    }
    return response.json().get("data").get("requestId").stringValue();
  }

  /** The caller's balance in one currency: {available, reserved}. */
  protected BigDecimal[] balance(String organisationId, String currency) {
    JsonNode data = http().get(BALANCE, as(organisationId)).json().get("data");
    for (JsonNode b : data) {
      if (b.get("currency").stringValue().equals(currency)) {
        return new BigDecimal[] {b.get("available").decimalValue(), b.get("reserved").decimalValue()};
      }
    }
    throw new AssertionError("no " + currency + " balance in " + data);
  }

  protected void topUp(String organisationId, String currency, int amount) {
    TestHttp.Response response = http().postJson(BALANCE + "/top-up",
        "{\"currency\":\"%s\",\"amount\":%d}".formatted(currency, amount), as(organisationId));
    assertThat(response.status()).isEqualTo(200);
  }

  protected static void await(BooleanSupplier condition) {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("condition not met within 20s");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
