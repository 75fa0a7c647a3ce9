package dev.lipa.payouts.live;

import static dev.lipa.common.testsupport.LiveStack.assertNothingStoredFor;
import static dev.lipa.common.testsupport.LiveStack.live;
import static dev.lipa.common.testsupport.LiveStack.sandbox;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.testsupport.LiveStack;
import dev.lipa.common.testsupport.SharedInfraInitializer;
import dev.lipa.common.testsupport.TestHttp;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;

/**
 * This module's one live-mode context: payouts-service started with {@code lipa.environment=live} over the shared
 * broker and store, with no live rail configured, an opening float configured (which live ignores) and the local
 * setting that would let callbacks reach private addresses (which live ignores too).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.environment=live",
    // the Daraja rail's listener belongs to the Daraja tests' live context, which shares its group on this broker
    "lipa.daraja.listener.auto-startup=false",
    "lipa.payouts.ledger.opening-float.KSH=1000000",
    "lipa.callbacks.allow-private-targets=true"})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
class LivePayoutsIntegrationTests {

  private static final String PAYOUT = """
      {"phoneNumber":"254712345678","amount":250,"remarks":"salary","occasion":"June","callbackUrl":"%s"}""";
  private static final String TOP_UP = "{\"currency\":\"KSH\",\"amount\":500,\"referenceId\":\"float-1\"}";

  @LocalServerPort
  int port;
  @Autowired
  MongoDatabase database;
  @Autowired
  KafkaListenerEndpointRegistry listeners;
  @Autowired
  ConfigurableEnvironment settings;

  TestHttp http() {
    return new TestHttp("http://127.0.0.1:" + port);
  }

  static String newOrganisation() {
    return UUID.randomUUID().toString();
  }

  @Nested
  class Names {

    @Test
    void storesInItsOwnDatabase() {
      assertThat(database.getName()).isEqualTo("lipa-payouts-live");
    }

    @Test
    void readsAndWritesTheLiveTopicsUnderLiveConsumerGroups() {
      LiveStack.assertListenersAreLive(listeners.getListenerContainers());
      assertThat(listeners.getListenerContainer("payouts-ledger").getContainerProperties().getTopics())
          .containsExactly("live.payments.collections.v1");
      assertThat(listeners.getListenerContainer("payouts-ledger").getGroupId()).isEqualTo("payouts-ledger-live");
      assertThat(listeners.getListenerContainerIds()).doesNotContain("payouts-sandbox-rail");
      assertThat(settings.getProperty("lipa.production-guard.produced-topics"))
          .isEqualTo("live.payments.payouts.v1,live.payments.callbacks.v1");
    }
  }

  @Nested
  class Tokens {

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/send-money", "/api/v1/till", "/api/v1/paybill", "/api/v1/de-allocations",
        "/api/sandbox/v1/send-money", "/api/sandbox/v1/balance/top-up"})
    void refusesASandboxKeysTokenOnEveryPathAndDoesNothing(String path) {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(path, PAYOUT.formatted("https://merchant.example/cb"),
          sandbox(org));

      assertThat(response.status()).isEqualTo(403);
      assertThat(response.json().get("message").stringValue()).isEqualTo(Environment.SANDBOX.wrongPathMessage());
      assertNothingStoredFor(database, org);
    }

    @Test
    void refusesASandboxKeysTokenOnTheBalanceToo() {
      assertThat(http().get("/api/v1/balance", sandbox(newOrganisation())).status()).isEqualTo(403);
    }
  }

  @Nested
  class TestOnlyFeatures {

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/balance/top-up", "/api/v1/balances/top-up", "/api/sandbox/v1/balance/top-up"})
    void thereIsNoTopUp(String path) {
      String org = newOrganisation();

      assertThat(http().postJson(path, TOP_UP, live(org)).status()).isEqualTo(404);
      assertNothingStoredFor(database, org);
    }

    @Test
    void balancesOpenAtZeroWhateverFloatIsConfigured() {
      TestHttp.Response response = http().get("/api/v1/balance", live(newOrganisation()));

      assertThat(response.status()).isEqualTo(200);
      for (JsonNode balance : response.json().get("data")) {
        assertThat(balance.get("available").decimalValue()).as(balance.toString()).isEqualByComparingTo(BigDecimal.ZERO);
      }
    }

    @Test
    void theSandboxPathFamilyIsUnknown() {
      String org = newOrganisation();

      assertThat(http().postJson("/api/sandbox/v1/send-money", PAYOUT.formatted("https://merchant.example/cb"),
          live(org)).status()).isEqualTo(404);
      assertThat(http().get("/api/sandbox/v1/balance", live(org)).status()).isEqualTo(404);
      assertNothingStoredFor(database, org);
    }
  }

  @Nested
  class Payouts {

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/send-money", "/api/v1/till", "/api/v1/paybill"})
    void withoutALiveRailAnswer503AndWriteNothing(String path) {
      String org = newOrganisation();
      String body = path.endsWith("send-money") ? PAYOUT.formatted("https://merchant.example/cb") : """
          {"businessNumber":"174379","accountNumber":"INV-7","amount":120,"remarks":"stock","occasion":"June",
           "callbackUrl":"https://merchant.example/cb"}""";
      Map<String, String> headers = new HashMap<>(live(org));
      headers.put("Idempotency-Key", "live-" + org);

      TestHttp.Response response = http().postJson(path, body, headers);

      assertThat(response.status()).as(response.body()).isEqualTo(503);
      assertThat(response.json().get("message").stringValue()).startsWith("no live rail is configured for ");
      assertNothingStoredFor(database, org);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://merchant.example/cb", "https://127.0.0.1/cb", "https://[::1]/cb",
        "https://169.254.169.254/latest"})
    void refuseCallbackUrlsLiveDoesNotCallWhateverTheLocalSettingSays(String url) {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson("/api/v1/send-money", PAYOUT.formatted(url), live(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").has("callbackUrl")).isTrue();
      assertNothingStoredFor(database, org);
    }
  }
}
