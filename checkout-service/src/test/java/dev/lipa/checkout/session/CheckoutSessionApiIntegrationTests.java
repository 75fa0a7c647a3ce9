package dev.lipa.checkout.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.checkout.CheckoutIntegrationTest;
import dev.lipa.common.testsupport.TestHttp;
import dev.lipa.common.testsupport.TestIssuer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The merchant API: create and retrieve checkout sessions, with the spec's checkout error body. */
class CheckoutSessionApiIntegrationTests extends CheckoutIntegrationTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @org.springframework.beans.factory.annotation.Autowired
  private dev.lipa.common.organisations.OrganisationDirectory directory;

  private static String with(String field, Object value) {
    ObjectNode node = (ObjectNode) JSON.readTree(cardAndMpesa());
    if (value == null) {
      node.remove(field);
    } else {
      node.set(field, JSON.valueToTree(value));
    }
    return node.toString();
  }

  private static void assertCheckoutError(TestHttp.Response response, int status, String field) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    JsonNode body = response.json();
    assertThat(body.has("status")).as("no envelope").isFalse();
    assertThat(body.has("data")).isFalse();
    assertThat(body.path("message").isString()).isTrue();
    assertThat(body.path("errors").isObject()).isTrue();
    if (field != null) {
      assertThat(body.path("errors").path(field).isArray()).as(response.body()).isTrue();
      assertThat(body.path("errors").path(field).get(0).isString()).isTrue();
    }
  }

  @Nested
  class Create {

    @Test
    void answers201WithoutEnvelopeAndAnUnguessableRef() {
      TestHttp.Response response = http().postJson(SESSIONS, cardAndMpesa(), as(newOrganisation()));
      assertThat(response.status()).isEqualTo(201);
      JsonNode body = response.json();
      assertThat(body.size()).isEqualTo(4);
      assertThat(body.path("id").asString()).matches("[0-9a-f-]{36}");
      assertThat(body.path("checkoutRef").asString()).matches("cs_[0-9A-Za-z]{32}");
      assertThat(body.path("checkoutUrl").asString())
          .isEqualTo("https://pay.example.test/checkout/" + body.path("checkoutRef").asString());
      assertThat(body.path("status").asString()).isEqualTo("PENDING");
    }

    @Test
    void acceptsDecimalsWhereTheCurrencyHasThemAndAnOptionalDeviceId() {
      Map<String, String> headers = new HashMap<>(as(newOrganisation()));
      headers.put("Device-Id", "device-123");
      TestHttp.Response response = http().postJson(SESSIONS, body("USD", "19.99", "[\"CARD\"]"), headers);
      assertThat(response.status()).as(response.body()).isEqualTo(201);
    }

    static Stream<Arguments> invalidFields() {
      return Stream.of(
          Arguments.of(named("amount missing", with("amount", null)), "amount"),
          Arguments.of(named("amount zero", with("amount", 0)), "amount"),
          Arguments.of(named("amount negative", with("amount", -5)), "amount"),
          Arguments.of(named("amount as a string", with("amount", "10")), "amount"),
          Arguments.of(named("amount with decimals while M-Pesa is offered", with("amount", 10.5)), "amount"),
          Arguments.of(named("amount with 3 decimals in USD", body("USD", "1.005", "[\"CARD\"]")), "amount"),
          Arguments.of(named("amount with decimals in UGX", body("UGX", "100.5", "[\"MPESA_STK\"]")), "amount"),
          Arguments.of(named("currency missing", with("currency", null)), "currency"),
          Arguments.of(named("currency of two letters", with("currency", "KE")), "currency"),
          Arguments.of(named("currency in lower case", with("currency", "kes")), "currency"),
          Arguments.of(named("currency not supported", with("currency", "EUR")), "currency"),
          Arguments.of(named("description missing", with("description", null)), "description"),
          Arguments.of(named("description blank", with("description", "  ")), "description"),
          Arguments.of(named("description too long", with("description", "x".repeat(256))), "description"),
          Arguments.of(named("successUrl missing", with("successUrl", null)), "successUrl"),
          Arguments.of(named("successUrl relative", with("successUrl", "/ok")), "successUrl"),
          Arguments.of(named("successUrl not http", with("successUrl", "javascript:alert(1)")), "successUrl"),
          Arguments.of(named("cancelUrl missing", with("cancelUrl", null)), "cancelUrl"),
          Arguments.of(named("cancelUrl ftp", with("cancelUrl", "ftp://shop.example/c")), "cancelUrl"),
          Arguments.of(named("paymentMethods missing", with("paymentMethods", null)), "paymentMethods"),
          Arguments.of(named("paymentMethods empty", with("paymentMethods", List.of())), "paymentMethods"),
          Arguments.of(named("paymentMethods not an array", with("paymentMethods", "CARD")), "paymentMethods"),
          Arguments.of(named("payment method unsupported", with("paymentMethods", List.of("PAYPAL"))),
              "paymentMethods"),
          Arguments.of(named("payment method in lower case", with("paymentMethods", List.of("card"))),
              "paymentMethods"),
          Arguments.of(named("payment method twice", with("paymentMethods", List.of("CARD", "CARD"))),
              "paymentMethods"),
          Arguments.of(named("M-Pesa in USD", body("USD", "10", "[\"MPESA_STK\"]")), "paymentMethods"),
          Arguments.of(named("card in TZS", body("TZS", "1000", "[\"CARD\"]")), "paymentMethods"),
          Arguments.of(named("customerEmail invalid", with("customerEmail", "jane.example.com")), "customerEmail"),
          Arguments.of(named("customerPhone local format", with("customerPhone", "0712345678")), "customerPhone"),
          Arguments.of(named("customerPhone without plus", with("customerPhone", "254712345678")),
              "customerPhone"),
          Arguments.of(named("externalReference too long", with("externalReference", "r".repeat(129))),
              "externalReference"),
          Arguments.of(named("callbackUrl relative", with("callbackUrl", "hooks")), "callbackUrl"),
          Arguments.of(named("callbackUrl to loopback", with("callbackUrl", "http://127.0.0.1/hook")),
              "callbackUrl"),
          Arguments.of(named("callbackUrl to cloud metadata", with("callbackUrl", "http://169.254.169.254/x")),
              "callbackUrl"));
    }

    @ParameterizedTest
    @MethodSource("invalidFields")
    void refusesInvalidFieldWith400AndTheCheckoutErrorBody(String body, String field) {
      String org = newOrganisation();
      TestHttp.Response response = http().postJson(SESSIONS, body, as(org));
      assertCheckoutError(response, 400, field);
      assertThat(database.getCollection(CheckoutSessionStore.COLLECTION)
          .countDocuments(com.mongodb.client.model.Filters.eq("organisationId", org))).isZero();
    }

    @Test
    void namesEveryFailingFieldInOneAnswer() {
      TestHttp.Response response = http().postJson(SESSIONS, "{\"amount\":0}", as(newOrganisation()));
      assertCheckoutError(response, 400, "amount");
      assertThat(response.json().path("errors").propertyNames())
          .contains("amount", "currency", "description", "successUrl", "cancelUrl", "paymentMethods");
    }

    @Test
    void refusesMalformedJsonWith400() {
      assertCheckoutError(http().postJson(SESSIONS, "{\"amount\":", as(newOrganisation())), 400, "body");
    }

    @Test
    void refusesMissingContentTypeWith415() {
      TestHttp.Response response = http().send("POST", SESSIONS, cardAndMpesa(), as(newOrganisation()));
      assertCheckoutError(response, 415, "Content-Type");
    }

    @Test
    void refusesAWrongContentTypeWith415() {
      Map<String, String> headers = new HashMap<>(as(newOrganisation()));
      headers.put("Content-Type", "text/plain");
      assertCheckoutError(http().postJson(SESSIONS, cardAndMpesa(), headers), 415, "Content-Type");
    }

    @Test
    void refusesAMissingTokenWith401InTheCheckoutShape() {
      TestHttp.Response response = http().postJson(SESSIONS, cardAndMpesa(), Map.of());
      assertCheckoutError(response, 401, null);
      assertThat(response.json().path("message").asString()).isEqualTo("invalid authentication token");
      assertThat(response.json().path("errors").size()).isZero();
    }

    @Test
    void refusesAForgedTokenWith401() {
      String token = TestIssuer.shared().token(newOrganisation(), claims -> claims.issuer("someone-else"));
      assertCheckoutError(http().postJson(SESSIONS, cardAndMpesa(), TestHttp.bearer(token)), 401, null);
    }

    @Test
    void refusesABlankIdempotencyKeyAsAFieldError() {
      Map<String, String> headers = new HashMap<>(as(newOrganisation()));
      headers.put("Idempotency-Key", " ");
      assertCheckoutError(http().postJson(SESSIONS, cardAndMpesa(), headers), 400, "Idempotency-Key");
    }
  }

  @Nested
  class Idempotency {

    @Test
    void theSameKeyAndBodyReplaysTheOriginal201AndCreatesOneSession() {
      String org = newOrganisation();
      Map<String, String> headers = new HashMap<>(as(org));
      headers.put("Idempotency-Key", "order-42");
      TestHttp.Response first = http().postJson(SESSIONS, cardAndMpesa(), headers);
      TestHttp.Response again = http().postJson(SESSIONS, cardAndMpesa(), headers);
      assertThat(first.status()).isEqualTo(201);
      assertThat(again.status()).isEqualTo(201);
      assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
      assertThat(again.json()).isEqualTo(first.json());
      assertThat(database.getCollection(CheckoutSessionStore.COLLECTION)
          .countDocuments(com.mongodb.client.model.Filters.eq("organisationId", org))).isOne();
    }

    @Test
    void theSameKeyWithAnotherBodyIs409() {
      Map<String, String> headers = new HashMap<>(as(newOrganisation()));
      headers.put("Idempotency-Key", "order-43");
      http().postJson(SESSIONS, cardAndMpesa(), headers);
      TestHttp.Response other = http().postJson(SESSIONS, with("amount", 99), headers);
      assertCheckoutError(other, 409, null);
    }

    @Test
    void keysOfDifferentOrganisationsNeverMeet() {
      String firstOrg = newOrganisation();
      String secondOrg = newOrganisation();
      String thirdOrg = newOrganisation();
      String key = "shared-key-" + UUID.randomUUID();
      TestHttp.Response a = http().postJson(SESSIONS, cardAndMpesa(), withKey(firstOrg, key));
      // the same key and body from another organisation: a session of its own, not a replay of the first
      TestHttp.Response b = http().postJson(SESSIONS, cardAndMpesa(), withKey(secondOrg, key));
      // the same key with another body from a third: a session of its own, not a conflict with either
      TestHttp.Response c = http().postJson(SESSIONS, with("amount", 99), withKey(thirdOrg, key));

      for (TestHttp.Response response : List.of(a, b, c)) {
        assertThat(response.status()).as(response.body()).isEqualTo(201);
        assertThat(response.headers().firstValue("Idempotent-Replayed")).isEmpty();
      }
      assertThat(List.of(a, b, c)).extracting(r -> r.json().path("id").asString()).doesNotHaveDuplicates()
          .allSatisfy(id -> assertThat(id).isNotBlank());
      assertThat(http().get(SESSIONS + "/" + b.json().path("id").asString(), as(secondOrg)).status())
          .isEqualTo(200);
      assertThat(http().get(SESSIONS + "/" + b.json().path("id").asString(), as(firstOrg)).status())
          .isEqualTo(404);
      for (String org : List.of(firstOrg, secondOrg, thirdOrg)) {
        assertThat(database.getCollection(CheckoutSessionStore.COLLECTION)
            .countDocuments(com.mongodb.client.model.Filters.eq("organisationId", org))).isOne();
      }
    }

    private Map<String, String> withKey(String organisationId, String key) {
      Map<String, String> headers = new HashMap<>(as(organisationId));
      headers.put("Idempotency-Key", key);
      return headers;
    }
  }

  @Nested
  class Retrieve {

    @Test
    void answersExactlyTheSpecFields() {
      String org = newOrganisation();
      JsonNode created = create(org, cardAndMpesa());
      TestHttp.Response response = http().get(SESSIONS + "/" + created.path("id").asString(), as(org));
      assertThat(response.status()).isEqualTo(200);
      JsonNode body = response.json();
      assertThat(body.propertyNames()).containsExactly("id", "amount", "currency", "description", "customerEmail",
          "customerMsisdn", "externalRef", "paymentMethods", "merchantDisplayName", "merchantLogoUrl", "status");
      assertThat(body.path("amount").decimalValue()).isEqualByComparingTo("1500");
      assertThat(body.path("currency").asString()).isEqualTo("KES");
      assertThat(body.path("customerMsisdn").asString()).isEqualTo("+254712345678");
      assertThat(body.path("externalRef").asString()).isEqualTo("ORD-42");
      assertThat(body.path("paymentMethods").toString()).isEqualTo("[\"CARD\",\"MPESA_STK\"]");
      assertThat(body.path("status").asString()).isEqualTo("PENDING");
    }

    @Test
    void showsTheMerchantsBrandingFromTheOrganisationDirectory() {
      String org = newOrganisation();
      directory.apply(new dev.lipa.common.organisations.OrganisationProfile(org, 7, "Duka Ltd", "254700000000",
          "ops@duka.example", "DUKA", "sandbox", null, null, true, List.of(), "https://cdn.duka.example/logo.png",
          "Duka Mugs", java.time.Instant.now(), java.time.Instant.now(), 1));
      JsonNode created = create(org, cardAndMpesa());
      JsonNode body = http().get(SESSIONS + "/" + created.path("id").asString(), as(org)).json();
      assertThat(body.path("merchantDisplayName").asString()).isEqualTo("Duka Mugs");
      assertThat(body.path("merchantLogoUrl").asString()).isEqualTo("https://cdn.duka.example/logo.png");
      String page = http().get("/checkout/" + created.path("checkoutRef").asString(), Map.of()).body();
      assertThat(page).contains("Duka Mugs", "https://cdn.duka.example/logo.png");
    }

    @Test
    void anotherOrganisationsSessionIs404InTheCheckoutShape() {
      JsonNode created = create(newOrganisation(), cardAndMpesa());
      TestHttp.Response response = http().get(SESSIONS + "/" + created.path("id").asString(),
          as(newOrganisation()));
      assertCheckoutError(response, 404, null);
    }

    @Test
    void anUnknownOrMalformedIdIs404() {
      String org = newOrganisation();
      assertCheckoutError(http().get(SESSIONS + "/" + java.util.UUID.randomUUID(), as(org)), 404, null);
      assertCheckoutError(http().get(SESSIONS + "/not-a-uuid", as(org)), 404, null);
    }

    @Test
    void needsAToken() {
      assertCheckoutError(http().get(SESSIONS + "/" + java.util.UUID.randomUUID(), Map.of()), 401, null);
    }
  }
}
