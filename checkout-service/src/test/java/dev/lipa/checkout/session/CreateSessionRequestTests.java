package dev.lipa.checkout.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.web.ValidationException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Every rule of a merchant's request for a checkout session, read from JSON as the platform's mapper reads it. */
class CreateSessionRequestTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();

  static ObjectNode valid() {
    return (ObjectNode) JSON.readTree("""
        {"amount":1500,"currency":"KES","description":"Order 42: two mugs","successUrl":"https://shop.example/ok",
         "cancelUrl":"https://shop.example/cancel","paymentMethods":["CARD","MPESA_STK"],"externalReference":"ORD-42",
         "customerEmail":"jane@example.com","customerPhone":"+254712345678","paymentReference":"PAY-42",
         "callbackUrl":"https://merchant.example/hooks/checkout"}""");
  }

  /** The valid body with fields replaced by JSON literals ({@code null} removes the field), in pairs. */
  static JsonNode with(String... fieldsAndLiterals) {
    ObjectNode body = valid();
    for (int i = 0; i < fieldsAndLiterals.length; i += 2) {
      if (fieldsAndLiterals[i + 1] == null) {
        body.remove(fieldsAndLiterals[i]);
      } else {
        body.set(fieldsAndLiterals[i], JSON.readTree(fieldsAndLiterals[i + 1]));
      }
    }
    return body;
  }

  static Map<String, List<String>> errorsOf(JsonNode body) {
    try {
      CreateSessionRequest.from(body);
    } catch (ValidationException e) {
      return e.errors();
    }
    throw new AssertionError("expected a validation failure");
  }

  static String quoted(String text) {
    return JSON.writeValueAsString(text);
  }

  @Test
  void readsAValidRequestFieldByField() {
    CreateSessionRequest request = CreateSessionRequest.from(valid());

    assertThat(request).isEqualTo(new CreateSessionRequest(new BigDecimal("1500"), CheckoutCurrency.KES, "KES",
        "Order 42: two mugs", "https://shop.example/ok", "https://shop.example/cancel",
        List.of(PaymentMethod.CARD, PaymentMethod.MPESA_STK), "ORD-42", "jane@example.com", "+254712345678",
        "PAY-42", "https://merchant.example/hooks/checkout"));
  }

  @Test
  void needsOnlyTheRequiredFields() {
    CreateSessionRequest request = CreateSessionRequest.from(JSON.readTree("""
        {"amount":10,"currency":"USD","description":"Mug","successUrl":"https://s.example/ok",
         "cancelUrl":"https://s.example/no","paymentMethods":["CARD"]}"""));

    assertThat(request.externalReference()).isNull();
    assertThat(request.customerEmail()).isNull();
    assertThat(request.customerPhone()).isNull();
    assertThat(request.paymentReference()).isNull();
    assertThat(request.callbackUrl()).isNull();
  }

  @Test
  void trimsTextsAndTreatsBlankOptionalFieldsAsAbsent() {
    CreateSessionRequest request = CreateSessionRequest.from(with("description", quoted("  Mug  "),
        "externalReference", quoted("   "), "callbackUrl", "null"));

    assertThat(request.description()).isEqualTo("Mug");
    assertThat(request.externalReference()).isNull();
    assertThat(request.callbackUrl()).isNull();
  }

  @Test
  void ignoresUnknownFields() {
    ObjectNode body = valid();
    body.put("colour", "blue").put("amountInCents", "x");

    assertThat(CreateSessionRequest.from(body).amount()).isEqualByComparingTo("1500");
  }

  @Test
  void namesEveryFailingFieldAtOnce() {
    JsonNode body = JSON.readTree("""
        {"amount":"1500","currency":"kes","description":"","successUrl":"/ok","cancelUrl":"ftp://x.example/c",
         "paymentMethods":"CARD","externalReference":%s,"customerEmail":"jane","customerPhone":"0712345678",
         "paymentReference":%s,"callbackUrl":"https://user:pw@merchant.example/cb"}"""
        .formatted(quoted("r".repeat(129)), quoted("p".repeat(129))));

    assertThat(errorsOf(body)).containsOnlyKeys("amount", "currency", "description", "successUrl", "cancelUrl",
        "paymentMethods", "externalReference", "customerEmail", "customerPhone", "paymentReference", "callbackUrl");
  }

  static Stream<Arguments> notObjects() {
    return Stream.of(Arguments.of(named("an array", "[1,2]")), Arguments.of(named("a string", "\"{}\"")),
        Arguments.of(named("a number", "42")), Arguments.of(named("null", "null")));
  }

  @ParameterizedTest(name = "refuses {0} as the body")
  @MethodSource("notObjects")
  void refusesABodyThatIsNotAnObject(String literal) {
    assertThatThrownBy(() -> CreateSessionRequest.from(JSON.readTree(literal)))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.errors()).containsExactly(Map.entry("body", List.of("must be a JSON object"))));
  }

  @Nested
  class Amount {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("absent", null), "amount is required"),
          Arguments.of(named("null", "null"), "amount is required"),
          Arguments.of(named("zero", "0"), "amount must be greater than 0"),
          Arguments.of(named("minus zero", "-0"), "amount must be greater than 0"),
          Arguments.of(named("negative", "-1"), "amount must be greater than 0"),
          Arguments.of(named("a tiny negative", "-0.01"), "amount must be greater than 0"),
          Arguments.of(named("three decimals", "10.005"), "amount must have at most 2 decimals"),
          Arguments.of(named("a tenth of a cent", "0.001"), "amount must have at most 2 decimals"),
          Arguments.of(named("10^-100000000", "1e-100000000"), "amount must have at most 2 decimals"),
          Arguments.of(named("a huge negative exponent", "-1e-2147483647"), "amount must have at most 2 decimals"),
          Arguments.of(named("one above the maximum", "1000000000000"), "amount must be at most 999999999999"),
          Arguments.of(named("10^100000000", "1e100000000"), "amount must be at most 999999999999"),
          Arguments.of(named("zeros that overflow a scale when stripped", "100E2147483647"),
              "amount must be at most 999999999999"),
          Arguments.of(named("35 digits", "12345678901234567890123456789012345"),
              "amount must have at most 34 digits"),
          Arguments.of(named("a numeric string", "\"1500\""), "amount must be a number, not a string"),
          Arguments.of(named("a boolean", "true"), "amount must be a number, not a boolean"),
          Arguments.of(named("an array", "[1500]"), "amount must be a number, not an array"),
          Arguments.of(named("an object", "{\"value\":1500}"), "amount must be a number, not an object"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String message) {
      assertThat(errorsOf(with("amount", literal))).containsExactly(Map.entry("amount", List.of(message)));
    }

    static Stream<Arguments> accepted() {
      return Stream.of(
          Arguments.of(named("the smallest card amount in KES", "0.01"), "KES", "[\"CARD\"]", "0.01"),
          Arguments.of(named("cents in USD", "19.99"), "USD", "[\"CARD\"]", "19.99"),
          Arguments.of(named("trailing zeros beyond the cents", "10.000"), "KES", "[\"CARD\"]", "10.000"),
          Arguments.of(named("the maximum", "999999999999"), "KES", "[\"CARD\"]", "999999999999"),
          Arguments.of(named("an exponent", "1.5E+3"), "TZS", "[\"MPESA_STK\"]", "1.5E+3"),
          Arguments.of(named("a whole decimal with M-Pesa", "1500.00"), "KES", "[\"MPESA_STK\"]", "1500.00"),
          Arguments.of(named("one shilling in UGX", "1"), "UGX", "[\"MPESA_STK\"]", "1"));
    }

    @ParameterizedTest(name = "accepts {0}")
    @MethodSource("accepted")
    void accepts(String literal, String currency, String methods, String expected) {
      CreateSessionRequest request = CreateSessionRequest.from(with("amount", literal,
          "currency", quoted(currency), "paymentMethods", methods));

      assertThat(request.amount()).isEqualByComparingTo(expected);
    }

    static Stream<Arguments> currencyRules() {
      return Stream.of(
          Arguments.of(named("cents in TZS", "1000.50"), "TZS", "[\"MPESA_STK\"]",
              "amount must be a whole number in TZS"),
          Arguments.of(named("cents in UGX", "0.5"), "UGX", "[\"MPESA_STK\"]",
              "amount must be a whole number in UGX"),
          Arguments.of(named("cents in KES with M-Pesa offered", "10.50"), "KES", "[\"CARD\",\"MPESA_STK\"]",
              "amount must be a whole number when MPESA_STK is offered"),
          Arguments.of(named("cents in KSH with M-Pesa offered", "0.01"), "KSH", "[\"MPESA_STK\"]",
              "amount must be a whole number when MPESA_STK is offered"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("currencyRules")
    void followsTheDecimalsOfTheCurrencyAndMethods(String literal, String currency, String methods,
        String message) {
      assertThat(errorsOf(with("amount", literal, "currency", quoted(currency), "paymentMethods", methods)))
          .containsExactly(Map.entry("amount", List.of(message)));
    }
  }

  @Nested
  class Currency {

    @ParameterizedTest(name = "accepts {0}")
    @MethodSource
    void accepts(String code, CheckoutCurrency currency) {
      CreateSessionRequest request = CreateSessionRequest.from(with("currency", quoted(code), "paymentMethods",
          currency.supports(PaymentMethod.CARD) ? "[\"CARD\"]" : "[\"MPESA_STK\"]"));

      assertThat(request.currency()).isEqualTo(currency);
      // the merchant's spelling is kept (KSH stays KSH)
      assertThat(request.currencyCode()).isEqualTo(code);
    }

    static Stream<Arguments> accepts() {
      return Stream.of(Arguments.of("KES", CheckoutCurrency.KES), Arguments.of("KSH", CheckoutCurrency.KSH),
          Arguments.of("TZS", CheckoutCurrency.TZS), Arguments.of("UGX", CheckoutCurrency.UGX),
          Arguments.of("USD", CheckoutCurrency.USD));
    }

    static Stream<Arguments> refused() {
      String format = "currency must be a three-letter code in capitals, such as KES";
      String unsupported = "is not supported; use one of KES, KSH, TZS, UGX, USD";
      return Stream.of(
          Arguments.of(named("absent", null), "currency is required"),
          Arguments.of(named("empty", "\"\""), "currency is required"),
          Arguments.of(named("lower case", "\"kes\""), format),
          Arguments.of(named("two letters", "\"KE\""), format),
          Arguments.of(named("four letters", "\"KESH\""), format),
          Arguments.of(named("digits", "\"404\""), format),
          Arguments.of(named("a symbol", "\"$\""), format),
          Arguments.of(named("a number", "404"), "currency must be a string"),
          Arguments.of(named("an unsupported code", "\"EUR\""), "currency EUR " + unsupported),
          Arguments.of(named("a made-up code", "\"XXX\""), "currency XXX " + unsupported));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String message) {
      assertThat(errorsOf(with("currency", literal))).containsExactly(Map.entry("currency", List.of(message)));
    }
  }

  @Nested
  class PaymentMethods {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("absent", null), "KES", List.of("paymentMethods is required")),
          Arguments.of(named("null", "null"), "KES", List.of("paymentMethods is required")),
          Arguments.of(named("a string", "\"CARD\""), "KES", List.of("paymentMethods must be an array of strings")),
          Arguments.of(named("empty", "[]"), "KES", List.of("paymentMethods must name at least one method")),
          Arguments.of(named("a number inside", "[\"CARD\",1]"), "KES",
              List.of("paymentMethods must contain only strings")),
          Arguments.of(named("an unknown method", "[\"PAYPAL\"]"), "KES",
              List.of("payment method PAYPAL is not supported; use CARD or MPESA_STK")),
          Arguments.of(named("lower case", "[\"card\"]"), "KES",
              List.of("payment method card is not supported; use CARD or MPESA_STK")),
          Arguments.of(named("a duplicate", "[\"CARD\",\"CARD\"]"), "KES",
              List.of("payment method CARD is listed more than once")),
          Arguments.of(named("M-Pesa in USD", "[\"MPESA_STK\"]"), "USD",
              List.of("payment method MPESA_STK is not available for USD; USD takes CARD")),
          Arguments.of(named("a card in TZS", "[\"CARD\"]"), "TZS",
              List.of("payment method CARD is not available for TZS; TZS takes MPESA_STK")),
          Arguments.of(named("two wrong ones", "[\"PAYPAL\",\"CARD\",\"CARD\"]"), "KES",
              List.of("payment method PAYPAL is not supported; use CARD or MPESA_STK",
                  "payment method CARD is listed more than once")));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String currency, List<String> messages) {
      assertThat(errorsOf(with("paymentMethods", literal, "currency", quoted(currency))))
          .containsExactly(Map.entry("paymentMethods", messages));
    }

    @Test
    void keepsTheMerchantsOrder() {
      assertThat(CreateSessionRequest.from(with("paymentMethods", "[\"MPESA_STK\",\"CARD\"]")).paymentMethods())
          .containsExactly(PaymentMethod.MPESA_STK, PaymentMethod.CARD);
    }
  }

  @Nested
  class Urls {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("relative", "/ok")),
          Arguments.of(named("without a scheme", "shop.example/ok")),
          Arguments.of(named("ftp", "ftp://shop.example/ok")),
          Arguments.of(named("javascript", "javascript:alert(1)")),
          Arguments.of(named("data", "data:text/html,hi")),
          Arguments.of(named("without a host", "https:///ok")),
          Arguments.of(named("with credentials", "https://user:secret@shop.example/ok")),
          Arguments.of(named("with a space", "https://shop example/ok")),
          Arguments.of(named("longer than 2048 characters", "https://shop.example/" + "a".repeat(2029))));
    }

    @ParameterizedTest(name = "refuses a successUrl {0}")
    @MethodSource("refused")
    void refusesASuccessUrl(String url) {
      assertThat(errorsOf(with("successUrl", quoted(url)))).containsOnlyKeys("successUrl");
    }

    @ParameterizedTest(name = "refuses a cancelUrl {0}")
    @MethodSource("refused")
    void refusesACancelUrl(String url) {
      assertThat(errorsOf(with("cancelUrl", quoted(url)))).containsOnlyKeys("cancelUrl");
    }

    @ParameterizedTest(name = "refuses a callbackUrl {0}")
    @MethodSource("refused")
    void refusesACallbackUrl(String url) {
      assertThat(errorsOf(with("callbackUrl", quoted(url)))).containsOnlyKeys("callbackUrl");
    }

    @Test
    void saysWhyAUrlIsRefused() {
      assertThat(errorsOf(with("successUrl", quoted("/ok"), "cancelUrl", null)))
          .containsExactly(Map.entry("successUrl", List.of("successUrl must be an absolute http or https URL")),
              Map.entry("cancelUrl", List.of("cancelUrl is required")));
      assertThat(errorsOf(with("successUrl", quoted("https://shop.example/" + "a".repeat(2029)))))
          .containsExactly(Map.entry("successUrl", List.of("successUrl must be at most 2048 characters")));
    }

    @Test
    void acceptsHttpWithAPortAQueryAndTheLongestUrl() {
      String longest = "https://shop.example/" + "a".repeat(2048 - "https://shop.example/".length());
      CreateSessionRequest request = CreateSessionRequest.from(with("successUrl",
          quoted("http://localhost:8080/ok?order=42"), "cancelUrl", quoted("HTTPS://shop.example/c"),
          "callbackUrl", quoted(longest)));

      assertThat(request.successUrl()).isEqualTo("http://localhost:8080/ok?order=42");
      assertThat(request.cancelUrl()).isEqualTo("HTTPS://shop.example/c");
      assertThat(request.callbackUrl()).hasSize(2048);
    }
  }

  @Nested
  class Texts {

    @Test
    void boundsTheDescriptionAt255Characters() {
      assertThat(CreateSessionRequest.from(with("description", quoted("d".repeat(255)))).description())
          .hasSize(255);
      assertThat(errorsOf(with("description", quoted("d".repeat(256)))))
          .containsExactly(Map.entry("description", List.of("description must be at most 255 characters")));
      assertThat(errorsOf(with("description", null)))
          .containsExactly(Map.entry("description", List.of("description is required")));
      assertThat(errorsOf(with("description", "42")))
          .containsExactly(Map.entry("description", List.of("description must be a string")));
    }

    @Test
    void boundsTheReferencesAt128Characters() {
      CreateSessionRequest request = CreateSessionRequest.from(with("externalReference", quoted("e".repeat(128)),
          "paymentReference", quoted("p".repeat(128))));
      assertThat(request.externalReference()).hasSize(128);
      assertThat(request.paymentReference()).hasSize(128);

      assertThat(errorsOf(with("externalReference", quoted("e".repeat(129)), "paymentReference",
          quoted("p".repeat(129))))).containsExactly(
              Map.entry("externalReference", List.of("externalReference must be at most 128 characters")),
              Map.entry("paymentReference", List.of("paymentReference must be at most 128 characters")));
    }
  }

  @Nested
  class Customer {

    static Stream<Arguments> refusedEmails() {
      return Stream.of(
          Arguments.of(named("without @", "jane.example.com")),
          Arguments.of(named("without a domain", "jane@")),
          Arguments.of(named("a domain without a dot", "jane@localhost")),
          Arguments.of(named("with a space", "jane doe@example.com")),
          Arguments.of(named("two @", "jane@doe@example.com")),
          Arguments.of(named("a local part over 64 characters", "j".repeat(65) + "@example.com")),
          Arguments.of(named("a label ending in a hyphen", "jane@example-.com")));
    }

    @ParameterizedTest(name = "refuses an email {0}")
    @MethodSource("refusedEmails")
    void refusesAnEmail(String email) {
      assertThat(errorsOf(with("customerEmail", quoted(email))))
          .containsExactly(Map.entry("customerEmail", List.of("customerEmail must be a valid email address")));
    }

    @Test
    void boundsTheEmailAt254Characters() {
      String longest = "j".repeat(64) + "@" + "d".repeat(185) + ".com";
      assertThat(longest).hasSize(254);
      assertThat(CreateSessionRequest.from(with("customerEmail", quoted(longest))).customerEmail())
          .isEqualTo(longest);
      assertThat(errorsOf(with("customerEmail", quoted("j" + longest))))
          .containsExactly(Map.entry("customerEmail", List.of("customerEmail must be at most 254 characters")));
    }

    static Stream<Arguments> refusedPhones() {
      return Stream.of(
          Arguments.of(named("a local number", "0712345678")),
          Arguments.of(named("without the plus", "254712345678")),
          Arguments.of(named("with spaces", "+254 712 345 678")),
          Arguments.of(named("a country code starting with 0", "+0712345678")),
          Arguments.of(named("too short", "+2547123")),
          Arguments.of(named("16 digits", "+2547123456789012")),
          Arguments.of(named("with letters", "+25471234567a")),
          Arguments.of(named("00 instead of the plus", "00254712345678")));
    }

    @ParameterizedTest(name = "refuses a phone number {0}")
    @MethodSource("refusedPhones")
    void refusesAPhoneNumber(String phone) {
      assertThat(errorsOf(with("customerPhone", quoted(phone)))).containsExactly(Map.entry("customerPhone",
          List.of("customerPhone must be in international format: + and the country code, then the number, "
              + "e.g. +254712345678")));
    }

    static Stream<Arguments> acceptedPhones() {
      return Stream.of(Arguments.of(named("Kenyan", "+254712345678")), Arguments.of(named("Tanzanian",
          "+255712345678")), Arguments.of(named("the shortest (8 digits)", "+12345678")),
          Arguments.of(named("the longest (15 digits)", "+123456789012345")));
    }

    @ParameterizedTest(name = "accepts a {0} number")
    @MethodSource("acceptedPhones")
    void acceptsAnInternationalNumber(String phone) {
      assertThat(CreateSessionRequest.from(with("customerPhone", quoted(phone))).customerPhone()).isEqualTo(phone);
    }
  }
}
