package dev.lipa.checkout.live;

import static dev.lipa.common.testsupport.LiveStack.assertNothingStoredFor;
import static dev.lipa.common.testsupport.LiveStack.live;
import static dev.lipa.common.testsupport.LiveStack.sandbox;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import dev.lipa.checkout.CollectionsStub;
import dev.lipa.common.environment.Environment;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.LiveStack;
import dev.lipa.common.testsupport.SharedInfraInitializer;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TopicRecorder;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * This module's one live-mode context: checkout-service started with {@code lipa.environment=live} over the shared
 * broker and store, with the local setting that would let callbacks reach private addresses (which live ignores).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lipa.environment=live",
    "lipa.checkout.public-base-url=https://pay.example.test",
    "lipa.checkout.collections.internal-token=" + CollectionsStub.TOKEN,
    "lipa.callbacks.allow-private-targets=true"})
@ContextConfiguration(initializers = SharedInfraInitializer.class)
class LiveCheckoutIntegrationTests {

  private static final String SESSIONS = "/api/v1/checkout-sessions";

  @LocalServerPort
  int port;
  @Autowired
  MongoDatabase database;
  @Autowired
  MongoClient client;
  @Autowired
  KafkaListenerEndpointRegistry listeners;
  @Autowired
  ConfigurableEnvironment settings;

  @DynamicPropertySource
  static void collections(DynamicPropertyRegistry registry) {
    registry.add("lipa.checkout.collections.uri", () -> CollectionsStub.shared().baseUrl());
  }

  @BeforeAll
  static void recordTopics() {
    TopicRecorder.start();
  }

  TestHttp http() {
    return new TestHttp("http://127.0.0.1:" + port);
  }

  static String newOrganisation() {
    return UUID.randomUUID().toString();
  }

  static String body(String methods, String callbackUrl) {
    return """
        {"amount":1500,"currency":"KES","description":"Order 42: two mugs","successUrl":"https://shop.example/ok",
         "cancelUrl":"https://shop.example/cancel","paymentMethods":%s,"externalReference":"ORD-42",
         "customerPhone":"+254712345678","callbackUrl":"%s"}""".formatted(methods, callbackUrl);
  }

  static String mpesaOnly() {
    return body("[\"MPESA_STK\"]", "https://93.184.216.34/hooks/checkout");
  }

  @Nested
  class Names {

    @Test
    void storesInItsOwnDatabaseAndFollowsTheLiveTopics() {
      assertThat(database.getName()).isEqualTo("lipa-checkout-live");
      LiveStack.assertListenersAreLive(listeners.getListenerContainers());
      assertThat(settings.getProperty("lipa.production-guard.produced-topics"))
          .isEqualTo("live.payments.checkout.v1,live.payments.callbacks.v1");
    }
  }

  @Nested
  class Tokens {

    @Test
    void refusesASandboxKeysTokenInTheCheckoutErrorBodyAndDoesNothing() {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(SESSIONS, mpesaOnly(), sandbox(org));

      assertThat(response.status()).isEqualTo(403);
      assertThat(response.json().get("message").stringValue()).isEqualTo(Environment.SANDBOX.wrongPathMessage());
      assertThat(response.json().get("errors").isEmpty()).isTrue();
      assertNothingStoredFor(database, org);
    }

    @Test
    void theSandboxPathFamilyIsUnknown() {
      String org = newOrganisation();

      assertThat(http().postJson("/api/sandbox/v1/checkout-sessions", mpesaOnly(), live(org)).status())
          .isEqualTo(404);
      assertNothingStoredFor(database, org);
    }
  }

  @Nested
  class Sessions {

    @Test
    void aLiveSessionIsStoredLivePublishedLiveAndNeverSeenFromTheSandbox() {
      String org = newOrganisation();

      TestHttp.Response created = http().postJson(SESSIONS, mpesaOnly(), live(org));

      assertThat(created.status()).as(created.body()).isEqualTo(201);
      String id = created.json().get("id").stringValue();
      String ref = created.json().get("checkoutRef").stringValue();
      assertThat(created.json().get("checkoutUrl").stringValue())
          .isEqualTo("https://pay.example.test/live/checkout/" + ref);
      assertThat(database.getCollection("checkout_sessions").countDocuments(Filters.eq("_id", id))).isEqualTo(1);
      MongoDatabase sandboxDatabase = client.getDatabase("lipa-checkout");
      assertThat(sandboxDatabase.getCollection("checkout_sessions").countDocuments(Filters.eq("_id", id))).isZero();
      await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
          assertThat(TopicRecorder.records("live.payments.checkout.v1", id)).isNotEmpty());
      assertThat(TopicRecorder.records(Topics.CHECKOUT, id)).isEmpty();
      assertThat(http().get(SESSIONS + "/" + id, sandbox(org)).status()).isEqualTo(403);
      assertThat(http().get(SESSIONS + "/" + id, live(org)).status()).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[\"CARD\"]", "[\"CARD\",\"MPESA_STK\"]", "[\"MPESA_STK\",\"card\"]"})
    void offersNoCardsAndSaysWhy(String methods) {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(SESSIONS, body(methods, "https://93.184.216.34/hooks"), live(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").has("paymentMethods")).isTrue();
      assertNothingStoredFor(database, org);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://93.184.216.34/hooks", "https://127.0.0.1/hooks", "https://192.168.1.10/hooks"})
    void refusesCallbackUrlsLiveDoesNotCallWhateverTheLocalSettingSays(String url) {
      String org = newOrganisation();

      TestHttp.Response response = http().postJson(SESSIONS, body("[\"MPESA_STK\"]", url), live(org));

      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().get("errors").has("callbackUrl")).isTrue();
      assertNothingStoredFor(database, org);
    }
  }

  @Nested
  class HostedPage {

    @Test
    void collectsNoCardNumberAndRefusesACardAttempt() {
      String org = newOrganisation();
      JsonNode created = http().postJson(SESSIONS, mpesaOnly(), live(org)).json();
      String ref = created.get("checkoutRef").stringValue();

      TestHttp.Response page = http().get("/checkout/" + ref, Map.of());
      TestHttp.Response card = http().postJson("/checkout/" + ref + "/card",
          "{\"cardNumber\":\"4242 4242 4242 4242\",\"expiry\":\"12/40\",\"cvc\":\"123\"}", Map.of());
      TestHttp.Response authentication = http().postJson("/checkout/" + ref + "/card/authentication",
          "{\"result\":\"approve\"}", Map.of());

      assertThat(page.status()).isEqualTo(200);
      assertThat(page.body()).doesNotContain("card-number", "cardNumber", "cvc", "tab-card")
          .contains("href=\"/live/checkout/assets/checkout.css\"", "src=\"/live/checkout/assets/checkout.js\"");
      assertThat(card.status()).isEqualTo(400);
      assertThat(card.json().get("message").stringValue()).contains("Card payments are not available");
      assertThat(authentication.status()).isEqualTo(400);
      JsonNode state = http().get("/checkout/" + ref + "/state", Map.of()).json();
      assertThat(state.get("status").stringValue()).isEqualTo("PENDING");
    }
  }
}
