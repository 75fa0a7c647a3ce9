package dev.lipa.payouts.payout.rail.daraja;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.testsupport.SharedInfraInitializer;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import dev.lipa.daraja.simulator.DarajaSimulator;
import dev.lipa.payouts.ledger.Ledger;
import dev.lipa.rails.daraja.credential.SecurityCredentials;
import dev.lipa.rails.daraja.tokens.DarajaTokenStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * A live payouts-service (one Spring context, shared by the test classes that extend this) with the Daraja rail
 * against one Daraja simulator over real sockets. Shortcodes are shared state of the context: each test sets the
 * ones it needs first.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.environment=live",
    // this context runs beside the module's shared sandbox one, on the same broker: its other listeners stay stopped
    // (they would share the sandbox context's consumer groups and take its records); the Daraja rail's own starts
    "spring.kafka.listener.auto-startup=false",
    "lipa.organisations.directory.group-id=payouts-daraja-tests-organisations",
    "spring.mongodb.database=lipa-payouts-daraja-tests",
    "lipa.payouts.sandbox.enabled=false",
    "lipa.payouts.overdue.after=3s",
    "lipa.payouts.overdue.sweep-interval=500ms",
    "lipa.payouts.daraja.request-timeout=1s",
    "lipa.payouts.daraja.callback-base-url=" + LiveDarajaIntegrationTest.PLATFORM,
    "lipa.payouts.daraja.callback-sources=196.201.214.0/24",
    // the daily reconciliation's own timer stays out of the tests' way: they run its checks at the times they choose
    "lipa.payouts.daraja.reconciliation.check-interval=1h",
    "lipa.operator.token=" + LiveDarajaIntegrationTest.OPERATOR_TOKEN})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
abstract class LiveDarajaIntegrationTest {

  /** The platform's public address as Daraja is told it (nothing listens there: tests deliver what Daraja posted). */
  static final String PLATFORM = "http://127.0.0.1:1/platform";
  static final Map<String, String> FROM_DARAJA = Map.of("X-Forwarded-For", "196.201.214.200",
      "Content-Type", "application/json");
  static final String OPERATOR_TOKEN = "payouts-daraja-tests-operator-token-0123456";
  static final Map<String, String> OPERATOR = Map.of("X-Operator-Token", OPERATOR_TOKEN);
  static final String SHORTCODES = "/admin/v1/daraja/payout-shortcodes";
  static final JsonMapper JSON = JsonMapper.builder().build();

  /** One simulator for every class of the context, stopped with the JVM (the context outlives each class). */
  static final DarajaSimulator daraja = start();

  @LocalServerPort
  int port;

  @Autowired
  MongoDatabase database;

  @Autowired
  Ledger ledger;

  private static DarajaSimulator start() {
    try {
      DarajaSimulator simulator = DarajaSimulator.start();
      Runtime.getRuntime().addShutdownHook(new Thread(simulator::close, "daraja-simulator-stop"));
      return simulator;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @DynamicPropertySource
  static void darajaAddress(DynamicPropertyRegistry registry) {
    registry.add("lipa.payouts.daraja.base-url", () -> daraja.baseUrl().toString());
  }

  @BeforeEach
  void clean() {
    daraja.reset();
    // the simulator forgets its tokens: so does the service's shared store, or the next request would pay a 401
    database.getCollection(DarajaTokenStore.COLLECTION).deleteMany(new Document());
  }

  TestHttp http() {
    return new TestHttp("http://127.0.0.1:" + port);
  }

  static Map<String, String> json(Map<String, String> headers) {
    Map<String, String> all = new HashMap<>(headers);
    all.put("Content-Type", "application/json");
    return all;
  }

  TestHttp.Response put(String shortcode, String body) {
    return http().send("PUT", SHORTCODES + "/" + shortcode, body, json(OPERATOR));
  }

  static String credential() {
    return SecurityCredentials.encrypt(DarajaSimulator.INITIATOR_PASSWORD.toCharArray(),
        daraja.certificate().certificate());
  }

  static String shortcode(String secret, String credential, String products) {
    return shortcode(DarajaSimulator.CONSUMER_KEY, secret, credential, products);
  }

  static String shortcode(String key, String secret, String credential, String products) {
    return """
        {"consumerKey":"%s","consumerSecret":"%s","initiatorName":"%s","securityCredential":"%s","products":%s}"""
        .formatted(key, secret, DarajaSimulator.INITIATOR, credential, products);
  }

  static Map<String, String> merchant(String organisationId) {
    return TestHttp.bearer(TestIssuer.shared().accessToken(organisationId, Environment.LIVE));
  }

  static void await(BooleanSupplier condition) {
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

  /** What Daraja posted to a ResultURL, and that URL's path on this service. */
  record Posted(String path, String body) {
  }

  /** The first result Daraja posted whose body contains {@code text} (waited for). */
  static Posted resultNaming(String text) {
    await(() -> daraja.posted().stream().anyMatch(p -> p.body().contains(text)));
    DarajaSimulator.Posted posted = daraja.posted().stream().filter(p -> p.body().contains(text)).findFirst()
        .orElseThrow();
    return new Posted(posted.url().toString().substring(PLATFORM.length()), posted.body());
  }
}
