package dev.lipa.checkout.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.lipa.checkout.CheckoutIntegrationTest;
import dev.lipa.checkout.CollectionsStub;
import dev.lipa.checkout.session.CheckoutSessionStore;
import dev.lipa.common.events.Topics;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestKafka;
import dev.lipa.common.testsupport.TopicRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.bson.Document;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The hosted page's API: card and M-Pesa attempts, the lifecycle, expiry, events and callbacks. */
class PaymentFlowIntegrationTests extends CheckoutIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  /** The consumer group of checkout's STK outcome listener ({@code mpesa.StkOutcomeListener}). */
  private static final String STK_OUTCOMES_GROUP = "checkout-stk-outcomes";
  private static final String CARD = "{\"cardNumber\":\"%s\",\"expiry\":\"12/39\",\"cvc\":\"123\"}";

  record Session(String org, String id, String ref) {
  }

  private Session open(String body) {
    String org = newOrganisation();
    JsonNode created = create(org, body);
    return new Session(org, created.path("id").asString(), created.path("checkoutRef").asString());
  }

  private String status(Session s) {
    return http().get(SESSIONS + "/" + s.id(), as(s.org())).json().path("status").asString();
  }

  private List<String> checkoutEventTypes(String sessionId) {
    return TopicRecorder.records(Topics.CHECKOUT, sessionId).stream()
        .map(r -> JSON.readTree(r.value()).path("type").asString()).toList();
  }

  private JsonNode callbackOf(String sessionId) {
    List<ConsumerRecord<String, String>> records = TopicRecorder.records(Topics.CALLBACKS, sessionId);
    assertThat(records).hasSize(1);
    return JSON.readTree(records.getFirst().value());
  }

  @Nested
  class Card {

    @Test
    void theSucceedingTestCardPaysAndRequestsTheCallback() {
      Session s = open(cardAndMpesa());
      TestHttp.Response response = page(s.ref(), "/card", CARD.formatted("4242 4242 4242 4242"));
      assertThat(response.status()).as(response.body()).isEqualTo(200);
      assertThat(response.json().path("status").asString()).isEqualTo("SUCCEEDED");
      assertThat(response.json().path("successUrl").asString()).isEqualTo("https://shop.example/ok");
      assertThat(status(s)).isEqualTo("SUCCEEDED");
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        assertThat(checkoutEventTypes(s.id()))
            .containsExactly("checkout.created", "checkout.processing", "checkout.succeeded");
        JsonNode callback = callbackOf(s.id());
        assertThat(callback.path("type").asString()).isEqualTo("callback.requested");
        assertThat(callback.path("organisationId").asString()).isEqualTo(s.org());
        JsonNode data = callback.path("data");
        assertThat(data.path("kind").asString()).isEqualTo("checkout");
        assertThat(data.path("requestId").asString()).isEqualTo(s.id());
        assertThat(data.path("url").asString()).isEqualTo("https://93.184.216.34/hooks/checkout");
        JsonNode body = data.path("body");
        assertThat(body.propertyNames()).containsExactly("id", "checkoutRef", "status", "amount", "currency",
            "externalReference", "paymentReference", "paymentMethod", "paidAt", "occurredAt");
        assertThat(body.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(body.path("paymentMethod").asString()).isEqualTo("CARD");
        assertThat(body.path("externalReference").asString()).isEqualTo("ORD-42");
        assertThat(body.path("paidAt").isString()).isTrue();
      });
    }

    /**
     * The contract payouts-service credits card payments from (its {@code CheckoutCredits}): the record as it is on the
     * wire, only the generated values put in by name.
     */
    @Test
    void publishesTheSucceededEventOfACardPaymentInItsPinnedShape() {
      Session s = open(body("KES", "1500.50", "[\"CARD\"]"));
      page(s.ref(), "/card", CARD.formatted("4242 4242 4242 4242"));
      await().atMost(Duration.ofSeconds(10)).until(() -> checkoutEventTypes(s.id()).contains("checkout.succeeded"));

      ConsumerRecord<String, String> record = TopicRecorder.records(Topics.CHECKOUT, s.id()).stream()
          .filter(r -> JSON.readTree(r.value()).path("type").asString().equals("checkout.succeeded"))
          .findFirst().orElseThrow();
      JsonNode event = JSON.readTree(record.value());
      String pinned = """
          {"eventId":"<eventId>","type":"checkout.succeeded","version":1,"occurredAt":"<occurredAt>",\
          "organisationId":"<organisationId>","data":{"checkoutSessionId":"<sessionId>","checkoutRef":"<ref>",\
          "status":"SUCCEEDED","amount":1500.50,"currency":"KES","externalReference":"ORD-42",\
          "paymentReference":"PAY-42","attempt":{"number":1,"paymentMethod":"CARD","status":"SUCCEEDED",\
          "cardBrand":"VISA","cardLast4":"4242","stkRequestId":null,"reason":null}}}""";
      assertThat(record.key()).isEqualTo(s.id());
      assertThat(UUID.fromString(event.path("eventId").asString())).isNotNull();
      assertThat(Instant.parse(event.path("occurredAt").asString())).isBefore(Instant.now().plusSeconds(1));
      assertThat(record.value()).isEqualTo(pinned.replace("<eventId>", event.path("eventId").asString())
          .replace("<occurredAt>", event.path("occurredAt").asString()).replace("<organisationId>", s.org())
          .replace("<sessionId>", s.id()).replace("<ref>", s.ref()));
    }

    @Test
    void aDeclinedCardFailsTheAttemptAndTheCustomerMayRetry() {
      Session s = open(cardAndMpesa());
      JsonNode declined = page(s.ref(), "/card", CARD.formatted("4000000000000002")).json();
      assertThat(declined.path("status").asString()).isEqualTo("PENDING");
      assertThat(declined.path("attempt").path("status").asString()).isEqualTo("FAILED");
      assertThat(declined.path("attempt").path("reason").asString()).contains("declined");
      assertThat(declined.path("attemptsLeft").asInt()).isEqualTo(4);
      assertThat(page(s.ref(), "/card", CARD.formatted("4242424242424242")).json().path("status").asString())
          .isEqualTo("SUCCEEDED");
    }

    @Test
    void theAuthenticationCardWaitsForTheCustomerThenSucceeds() {
      Session s = open(cardAndMpesa());
      JsonNode waiting = page(s.ref(), "/card", CARD.formatted("4000002500003155")).json();
      assertThat(waiting.path("status").asString()).isEqualTo("REQUIRES_CUSTOMER_ACTION");
      assertThat(status(s)).isEqualTo("REQUIRES_CUSTOMER_ACTION");
      JsonNode paid = page(s.ref(), "/card/authentication", "{\"result\":\"approve\"}").json();
      assertThat(paid.path("status").asString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void cancellingAuthenticationFailsTheAttemptOnly() {
      Session s = open(cardAndMpesa());
      page(s.ref(), "/card", CARD.formatted("4000002500003155"));
      JsonNode after = page(s.ref(), "/card/authentication", "{\"result\":\"cancel\"}").json();
      assertThat(after.path("status").asString()).isEqualTo("PENDING");
      assertThat(after.path("attempt").path("status").asString()).isEqualTo("FAILED");
    }

    @Test
    void refusesInvalidCardFieldsWithoutAnAttempt() {
      Session s = open(cardAndMpesa());
      TestHttp.Response response = page(s.ref(), "/card",
          "{\"cardNumber\":\"4242424242424241\",\"expiry\":\"01/20\",\"cvc\":\"12\"}");
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().path("errors").propertyNames()).containsExactly("cardNumber", "expiry", "cvc");
      assertThat(status(s)).isEqualTo("PENDING");
    }

    @Test
    void neverStoresTheCardNumberOrCvc() {
      Session s = open(cardAndMpesa());
      page(s.ref(), "/card", "{\"cardNumber\":\"4000002500003155\",\"expiry\":\"12/39\",\"cvc\":\"9876\"}");
      page(s.ref(), "/card/authentication", "{\"result\":\"cancel\"}");
      page(s.ref(), "/card", "{\"cardNumber\":\"4242424242424242\",\"expiry\":\"12/39\",\"cvc\":\"9876\"}");
      Document stored = database.getCollection(CheckoutSessionStore.COLLECTION).find(Filters.eq("_id", s.id()))
          .first();
      String text = stored.toJson();
      assertThat(text).doesNotContain("4000002500003155", "4242424242424242", "424242424242");
      // the CVC is no value and no key anywhere (its four digits alone may turn up inside a random id)
      assertThat(valuesAndKeys(JSON.readTree(text))).doesNotContain("9876", "cvc");
      assertThat(text).contains("\"cardLast4\": \"3155\"", "\"cardLast4\": \"4242\"", "\"cardBrand\": \"VISA\"");
      // nor the events that left for Kafka
      await().atMost(Duration.ofSeconds(10)).until(() -> checkoutEventTypes(s.id()).size() >= 5);
      TopicRecorder.records(Topics.CHECKOUT, s.id())
          .forEach(r -> {
            assertThat(r.value()).doesNotContain("4242424242424242");
            assertThat(valuesAndKeys(JSON.readTree(r.value()))).doesNotContain("9876", "cvc");
          });
    }

    /** Every key (lower-cased) and every scalar value of a JSON tree. */
    private static java.util.List<String> valuesAndKeys(JsonNode node) {
      java.util.List<String> all = new java.util.ArrayList<>();
      if (node.isObject()) {
        node.properties().forEach(e -> {
          all.add(e.getKey().toLowerCase(java.util.Locale.ROOT));
          all.addAll(valuesAndKeys(e.getValue()));
        });
      } else if (node.isArray()) {
        node.forEach(element -> all.addAll(valuesAndKeys(element)));
      } else {
        all.add(node.asString());
      }
      return all;
    }

    @Test
    void theLastAllowedFailedAttemptFailsTheSession() {
      Session s = open(cardAndMpesa());
      JsonNode last = null;
      for (int i = 0; i < 5; i++) {
        last = page(s.ref(), "/card", CARD.formatted("4000000000000002")).json();
      }
      assertThat(last.path("status").asString()).isEqualTo("FAILED");
      assertThat(status(s)).isEqualTo("FAILED");
      TestHttp.Response refused = page(s.ref(), "/card", CARD.formatted("4242424242424242"));
      assertThat(refused.status()).isEqualTo(409);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(callbackOf(s.id()).path("data").path("body").path("status").asString()).isEqualTo("FAILED"));
    }

    @Test
    void aFinishedSessionRefusesNewAttempts() {
      Session s = open(cardAndMpesa());
      page(s.ref(), "/card", CARD.formatted("4242424242424242"));
      TestHttp.Response again = page(s.ref(), "/card", CARD.formatted("4242424242424242"));
      assertThat(again.status()).isEqualTo(409);
      assertThat(again.json().path("message").asString()).contains("already paid");
    }

    @Test
    void aMethodTheSessionDoesNotOfferIsRefused() {
      Session s = open(body("TZS", "1000", "[\"MPESA_STK\"]"));
      assertThat(page(s.ref(), "/card", CARD.formatted("4242424242424242")).status()).isEqualTo(400);
    }
  }

  @Nested
  class Mpesa {

    @Test
    void startsThePushThroughCollectionsAndFollowsTheOutcome() {
      Session s = open(cardAndMpesa());
      JsonNode started = page(s.ref(), "/mpesa", "{\"phoneNumber\":\"0712 345 678\"}").json();
      assertThat(started.path("status").asString()).isEqualTo("REQUIRES_CUSTOMER_ACTION");
      CollectionsStub.Call call = CollectionsStub.shared().callFor(s.id());
      assertThat(call.token()).isEqualTo(CollectionsStub.TOKEN);
      assertThat(call.body().path("organisationId").asString()).isEqualTo(s.org());
      assertThat(call.body().path("phoneNumber").asString()).isEqualTo("0712345678");
      assertThat(call.body().path("currencyCode").asString()).isEqualTo("KSH");
      assertThat(call.body().path("amount").decimalValue()).isEqualByComparingTo("1500");
      assertThat(call.body().path("description").asString()).hasSizeLessThanOrEqualTo(13);
      assertThat(call.body().path("accountReference").asString()).matches("[0-9A-Za-z]{12}");
      assertThat(call.body().has("callbackUrl")).isFalse();
      // the internal call is observed (Boot's RestClient builder): collections-service continues the checkout's trace
      assertThat(call.traceparent()).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");

      publishStkOutcome(s.org(), call, true);
      await().atMost(Duration.ofSeconds(15)).until(() -> status(s).equals("SUCCEEDED"));
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        assertThat(checkoutEventTypes(s.id())).containsExactly("checkout.created", "checkout.processing",
            "checkout.requires_action", "checkout.processing", "checkout.succeeded");
        assertThat(callbackOf(s.id()).path("data").path("body").path("paymentMethod").asString())
            .isEqualTo("MPESA_STK");
      });
      // a contrary outcome for the same push, read by checkout's consumer (its offset committed past it), changes
      // nothing: the session stays paid and no event follows
      RecordMetadata contrary = publishStkOutcome(s.org(), call, false);
      TestKafka.awaitConsumed(STK_OUTCOMES_GROUP, contrary, Duration.ofSeconds(15));
      assertThat(status(s)).isEqualTo("SUCCEEDED");
      assertThat(page(s.ref(), "/state", null).json().path("attempt").path("status").asString())
          .isEqualTo("SUCCEEDED");
      assertThat(checkoutEventTypes(s.id())).containsExactly("checkout.created", "checkout.processing",
          "checkout.requires_action", "checkout.processing", "checkout.succeeded");
    }

    @Test
    void aFailedPromptReturnsTheSessionToPendingForAnotherTry() {
      Session s = open(cardAndMpesa());
      page(s.ref(), "/mpesa", "{\"phoneNumber\":\"+254712345678\"}");
      publishStkOutcome(s.org(), CollectionsStub.shared().callFor(s.id()), false);
      await().atMost(Duration.ofSeconds(15)).until(() -> status(s).equals("PENDING"));
      JsonNode state = page(s.ref(), "/state", null).json();
      assertThat(state.path("attempt").path("status").asString()).isEqualTo("FAILED");
      assertThat(state.path("attempt").path("reason").asString()).contains("cancelled by user");
    }

    @Test
    void aRefusedPhoneNumberIsAFieldErrorAndDoesNotCount() {
      Session s = open(cardAndMpesa());
      TestHttp.Response response = page(s.ref(), "/mpesa",
          "{\"phoneNumber\":\"" + CollectionsStub.REFUSED_PHONE + "\"}");
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().path("errors").path("phoneNumber").get(0).asString()).contains("Kenyan");
      JsonNode state = page(s.ref(), "/state", null).json();
      assertThat(state.path("status").asString()).isEqualTo("PENDING");
      assertThat(state.path("attemptsLeft").asInt()).isEqualTo(5);
    }

    @Test
    void aNumberThatHasHadItsPromptsIsAFieldErrorThatSaysSoAndDoesNotCount() {
      Session s = open(cardAndMpesa());
      TestHttp.Response response = page(s.ref(), "/mpesa",
          "{\"phoneNumber\":\"" + CollectionsStub.LIMITED_PHONE + "\"}");
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.json().path("errors").path("phoneNumber").get(0).asString())
          .isEqualTo(CollectionsStub.LIMITED_MESSAGE);
      JsonNode state = page(s.ref(), "/state", null).json();
      assertThat(state.path("status").asString()).isEqualTo("PENDING");
      assertThat(state.path("attemptsLeft").asInt()).isEqualTo(5);
    }

    @Test
    void anOutcomeForAnotherOrganisationIsIgnored() {
      Session s = open(cardAndMpesa());
      page(s.ref(), "/mpesa", "{\"phoneNumber\":\"0712345678\"}");
      publishStkOutcome(newOrganisation(), CollectionsStub.shared().callFor(s.id()), true);
      publishStkOutcome(s.org(), CollectionsStub.shared().callFor(s.id()), false);
      await().atMost(Duration.ofSeconds(15)).until(() -> status(s).equals("PENDING"));
    }
  }

  @Nested
  class Expiry {

    @Test
    void theJobExpiresASessionPastItsLifetimeAndRequestsTheCallback() {
      Session s = open(cardAndMpesa());
      ageOut(s.id());
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        Document stored = database.getCollection(CheckoutSessionStore.COLLECTION)
            .find(Filters.eq("_id", s.id())).first();
        assertThat(stored.getString("status")).isEqualTo("EXPIRED");
      });
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        assertThat(checkoutEventTypes(s.id())).containsExactly("checkout.created", "checkout.expired");
        assertThat(callbackOf(s.id()).path("data").path("body").path("status").asString()).isEqualTo("EXPIRED");
      });
      TestHttp.Response refused = page(s.ref(), "/card", CARD.formatted("4242424242424242"));
      assertThat(refused.status()).isEqualTo(409);
      assertThat(refused.json().path("message").asString()).contains("expired");
    }

    @Test
    void aPaymentAfterTheSessionExpiredIsALatePaymentTheMerchantHearsOfOnce() {
      Session s = open(cardAndMpesa());
      page(s.ref(), "/mpesa", "{\"phoneNumber\":\"0712345678\"}");
      CollectionsStub.Call call = CollectionsStub.shared().callFor(s.id());
      // the prompt was still with the customer at the end of the lifetime and of its grace period
      database.getCollection(CheckoutSessionStore.COLLECTION).updateOne(Filters.eq("_id", s.id()),
          Updates.set("expiresAt", Date.from(Instant.now().minus(Duration.ofMinutes(6)))));
      await().atMost(Duration.ofSeconds(10)).until(() -> status(s).equals("EXPIRED"));

      // the customer approves the prompt now: collections-service reports the payment, then the same event again
      publishStkOutcome(s.org(), call, true);
      await().atMost(Duration.ofSeconds(15)).until(() -> checkoutEventTypes(s.id()).contains("checkout.late_payment"));
      RecordMetadata again = publishStkOutcome(s.org(), call, true);
      TestKafka.awaitConsumed(STK_OUTCOMES_GROUP, again, Duration.ofSeconds(15));

      assertThat(status(s)).isEqualTo("EXPIRED");
      assertThat(checkoutEventTypes(s.id())).containsExactly("checkout.created", "checkout.processing",
          "checkout.requires_action", "checkout.expired", "checkout.late_payment");
      JsonNode late = JSON.readTree(TopicRecorder.records(Topics.CHECKOUT, s.id(), "checkout.late_payment")
          .getFirst().value()).path("data").path("latePayment");
      assertThat(late.path("stkRequestId").asString()).isEqualTo(call.requestId());
      assertThat(late.path("amount").decimalValue()).isEqualByComparingTo("1500");
      assertThat(late.path("receipt").asString()).isEqualTo("SBX1234567");
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        List<JsonNode> bodies = TopicRecorder.records(Topics.CALLBACKS, s.id()).stream()
            .map(r -> JSON.readTree(r.value()).path("data").path("body")).toList();
        assertThat(bodies).extracting(b -> b.path("status").asString()).containsExactly("EXPIRED", "EXPIRED");
        assertThat(bodies.get(1).path("latePayment").path("stkRequestId").asString()).isEqualTo(call.requestId());
        assertThat(bodies.get(0).has("latePayment")).isFalse();
      });
    }
  }

  @Nested
  class PageAccess {

    @Test
    void anUnknownReferenceIs404AndRevealsNothing() {
      assertThat(page("cs_" + "A".repeat(32), "/state", null).status()).isEqualTo(404);
      TestHttp.Response html = http().get("/checkout/cs_" + "B".repeat(32), java.util.Map.of());
      assertThat(html.status()).isEqualTo(404);
      assertThat(html.body()).contains("not valid");
    }

    @Test
    void theStateShowsNothingOfTheMerchantsPrivateFields() {
      Session s = open(cardAndMpesa());
      String state = page(s.ref(), "/state", null).body();
      assertThat(state).doesNotContain(s.org(), "hooks/checkout", "ORD-42", "PAY-42", "shop.example/ok");
    }

    @Test
    void thePageCarriesSecurityHeadersAndEscapesMerchantText() {
      Session s = open(cardAndMpesa().replace("Order 42: two mugs", "<script>alert(1)</script>"));
      TestHttp.Response html = http().get("/checkout/" + s.ref(), java.util.Map.of());
      assertThat(html.status()).isEqualTo(200);
      assertThat(html.body()).contains("&lt;script&gt;alert(1)&lt;/script&gt;", "KES", "1,500.00",
          "name=\"viewport\"");
      assertThat(html.headers().firstValue("Content-Security-Policy").orElseThrow())
          .contains("frame-ancestors 'none'", "script-src 'self'");
      assertThat(html.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
      assertThat(html.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    }

    @Test
    void thePageApiRefusesFormPosts() {
      Session s = open(cardAndMpesa());
      TestHttp.Response response = http().postJson("/checkout/" + s.ref() + "/card",
          "cardNumber=4242424242424242", java.util.Map.of("Content-Type", "application/x-www-form-urlencoded"));
      assertThat(response.status()).isEqualTo(415);
    }
  }
}
