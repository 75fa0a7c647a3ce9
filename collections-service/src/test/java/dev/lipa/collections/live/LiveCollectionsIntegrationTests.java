package dev.lipa.collections.live;

import static dev.lipa.common.testsupport.LiveStack.assertNothingStoredFor;
import static dev.lipa.common.testsupport.LiveStack.live;
import static dev.lipa.common.testsupport.LiveStack.sandbox;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.testsupport.LiveStack;
import dev.lipa.common.testsupport.SharedInfraInitializer;
import dev.lipa.common.testsupport.TestHttp;
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

/**
 * This module's one live-mode context: collections-service started with {@code lipa.environment=live} over the shared
 * broker and store, with no live rail configured (the Daraja adapter is a bean of its own when shortcodes are set) and
 * with the local setting that would let callbacks reach private addresses, which live ignores.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.environment=live",
    // the Daraja rail's listener belongs to the Daraja tests' live context, which shares its group on this broker
    "lipa.daraja.listener.auto-startup=false",
    "lipa.callbacks.allow-private-targets=true",
    "lipa.internal.token=internal-test-token"})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
class LiveCollectionsIntegrationTests {

  private static final String PUSH = """
      {"description":"Order 42","phoneNumber":"254712345678","amount":10,"accountReference":"INV42",
       "callbackUrl":"%s"}""";

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
      assertThat(database.getName()).isEqualTo("lipa-collections-live");
    }

    @Test
    void readsAndWritesTheLiveTopicsUnderLiveConsumerGroups() {
      LiveStack.assertListenersAreLive(listeners.getListenerContainers());
      assertThat(settings.getProperty("lipa.production-guard.produced-topics"))
          .isEqualTo("live.payments.collections.v1,live.payments.callbacks.v1");
    }

    @Test
    void runsNoSandboxRail() {
      assertThat(listeners.getListenerContainerIds()).doesNotContain("collections-sandbox-rail");
    }
  }

  @Nested
  class Tokens {

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/stk/new", "/api/sandbox/v1/stk/new", "/api/v1/stk/all",
        "/api/v1/tz/collections/single?requestId=" + "00000000-0000-4000-8000-000000000000",
        "/api/v1/bank/collection/all"})
    void refusesASandboxKeysTokenOnEveryPathAndDoesNothing(String path) {
      String org = newOrganisation();

      TestHttp.Response response = path.contains("/new")
          ? http().postJson(path, PUSH.formatted("https://merchant.example/cb"), sandbox(org))
          : http().get(path, sandbox(org));

      assertThat(response.status()).isEqualTo(403);
      assertThat(response.json().get("message").stringValue()).isEqualTo(Environment.SANDBOX.wrongPathMessage());
      assertNothingStoredFor(database, org);
    }
  }

  @Nested
  class Paths {

    @Test
    void servesTheLivePathsOnly() {
      String org = newOrganisation();

      assertThat(http().get("/api/v1/stk/all", live(org)).status()).isEqualTo(200);
      assertThat(http().postJson("/api/sandbox/v1/stk/new", PUSH.formatted("https://merchant.example/cb"),
          live(org)).status()).isEqualTo(404);
      assertThat(http().get("/api/sandbox/v1/stk/all", live(org)).status()).isEqualTo(404);
      assertNothingStoredFor(database, org);
    }

    @Test
    void hasNoSimulatedDepositsAndNoBankNotifications() {
      String org = newOrganisation();
      String deposit = """
          {"accountnumber":"1234567890","amount":500,"transactionref":"TX-1","source":"EQUITY"}""";

      assertThat(http().postJson("/api/sandbox/v1/bank/collection/simulate", deposit, live(org)).status())
          .isEqualTo(404);
      assertThat(http().postJson("/api/v1/bank/collection/simulate", deposit, live(org)).status()).isEqualTo(404);
      assertThat(http().postJson("/api/v1/banks/testbank/notifications", deposit, Map.of()).status())
          .isEqualTo(404);
      assertNothingStoredFor(database, org);
    }
  }

  @Nested
  class Pushes {

    @Test
    void withoutALiveRailAnswers503AndWritesNothing() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson("/api/v1/stk/new", PUSH.formatted("https://merchant.example/cb"),
          Map.of("Authorization", live(org).get("Authorization"), "Idempotency-Key", "live-" + org));

      assertThat(response.status()).isEqualTo(503);
      assertThat(response.json().get("message").stringValue()).startsWith("no live rail is configured for ").contains("STK");
      assertNothingStoredFor(database, org);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://merchant.example/cb", "HTTP://merchant.example/cb", "https://127.0.0.1/cb",
        "https://10.0.0.7/cb", "https://0x7f.1/cb"})
    void refusesCallbackUrlsLiveDoesNotCallWhateverTheLocalSettingSays(String url) {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson("/api/v1/stk/new", PUSH.formatted(url), live(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").has("callbackUrl")).isTrue();
      assertNothingStoredFor(database, org);
    }
  }
}
