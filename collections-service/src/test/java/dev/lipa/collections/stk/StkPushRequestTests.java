package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;

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

/** Every KE rule of the STK push request. */
class StkPushRequestTests {

  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(tools.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  static ObjectNode valid() {
    return (ObjectNode) JSON.readTree("""
        {"description":"Order 42","phoneNumber":"0712345678","amount":10,"accountReference":"INV42",
         "callbackUrl":"https://merchant.example/callbacks/stk"}""");
  }

  /** The valid body with one field replaced by a JSON literal ({@code null} removes the field). */
  static JsonNode with(String field, String jsonLiteral) {
    ObjectNode body = valid();
    if (jsonLiteral == null) {
      body.remove(field);
    } else {
      body.set(field, JSON.readTree(jsonLiteral));
    }
    return body;
  }

  static Map<String, List<String>> errorsOf(JsonNode body) {
    try {
      StkPushRequest.from(body);
    } catch (ValidationException e) {
      return e.errors();
    }
    throw new AssertionError("expected a validation failure");
  }

  @Test
  void acceptsAValidKenyanRequestWithDefaults() {
    StkPushRequest request = StkPushRequest.from(valid());

    assertThat(request.description()).isEqualTo("Order 42");
    assertThat(request.phoneNumber().value()).isEqualTo("254712345678");
    assertThat(request.amount()).isEqualTo(new BigDecimal("10"));
    assertThat(request.accountReference()).isEqualTo("INV42");
    assertThat(request.callbackUrl()).isEqualTo("https://merchant.example/callbacks/stk");
    assertThat(request.currency()).isEqualTo(StkCurrency.KSH);
    assertThat(request.referenceId()).isNull();
  }

  @Test
  void ignoresUnknownFieldsAndThoseOfOtherCountries() {
    ObjectNode body = valid();
    body.put("channel", "TZ-TIGO-C2B").put("narration", "x").put("customerName", "y").put("colour", "blue");

    assertThat(StkPushRequest.from(body).description()).isEqualTo("Order 42");
  }

  @Test
  void namesEveryFailingFieldAtOnce() {
    JsonNode body = JSON.readTree("""
        {"description":"","phoneNumber":"0201234567","amount":"10","accountReference":"INV-42",
         "callbackUrl":"ftp://x","currencyCode":"KES","referenceId":"%s"}""".formatted("r".repeat(65)));

    assertThat(errorsOf(body)).containsOnlyKeys("description", "phoneNumber", "amount", "accountReference",
        "callbackUrl", "currencyCode", "referenceId");
  }

  @Test
  void refusesABodyThatIsNotAnObject() {
    assertThatThrownBy(() -> StkPushRequest.from(JSON.readTree("[1,2]")))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.errors()).containsKey("body"));
  }

  @Nested
  class Amount {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("a fraction (10.5)", "10.5"), "amount must be a whole number"),
          Arguments.of(named("zero", "0"), "amount must be greater than 0"),
          Arguments.of(named("a negative number (-1)", "-1"), "amount must be greater than 0"),
          Arguments.of(named("a numeric string (\"10\")", "\"10\""), "amount must be a number, not a string"),
          Arguments.of(named("a boolean (true)", "true"), "amount must be a number, not a boolean"),
          Arguments.of(named("null", "null"), "amount is required"),
          Arguments.of(named("absent", null), "amount is required"),
          Arguments.of(named("an object", "{}"), "amount must be a number, not an object"),
          Arguments.of(named("beyond the storage bound", "1000000000000000"),
              "amount must be at most 999999999999999"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String message) {
      assertThat(errorsOf(with("amount", literal))).containsExactly(Map.entry("amount", List.of(message)));
    }

    static Stream<Arguments> accepted() {
      return Stream.of(
          Arguments.of(named("10", "10"), "10"),
          Arguments.of(named("10.0 (a whole decimal)", "10.0"), "10"),
          Arguments.of(named("1E+1", "1E+1"), "10"),
          Arguments.of(named("the largest", "999999999999999"), "999999999999999"));
    }

    @ParameterizedTest(name = "accepts {0}")
    @MethodSource("accepted")
    void acceptsWholeAmountsAsScaleZero(String literal, String expected) {
      BigDecimal amount = StkPushRequest.from(with("amount", literal)).amount();
      assertThat(amount.toPlainString()).isEqualTo(expected);
      assertThat(amount.scale()).isZero();
    }
  }

  @Nested
  class Description {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("absent", null), "description is required"),
          Arguments.of(named("empty", "\"\""), "description is required"),
          Arguments.of(named("blank", "\"   \""), "description is required"),
          Arguments.of(named("14 characters", "\"ABCDEFGHIJKLMN\""), "description must be at most 13 characters"),
          Arguments.of(named("a number", "5"), "description must be a string"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String message) {
      assertThat(errorsOf(with("description", literal))).containsExactly(Map.entry("description", List.of(message)));
    }

    @ParameterizedTest(name = "accepts {0}")
    @MethodSource
    void accepts(String literal) {
      assertThat(StkPushRequest.from(with("description", literal)).description()).isNotBlank();
    }

    static Stream<Arguments> accepts() {
      return Stream.of(Arguments.of(named("1 character", "\"A\"")),
          Arguments.of(named("13 characters", "\"ABCDEFGHIJKLM\"")));
    }
  }

  @Nested
  class AccountReference {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("absent for KSH", null), "accountReference is required"),
          Arguments.of(named("empty for KSH", "\"\""), "accountReference is required"),
          Arguments.of(named("13 characters", "\"ABCDEFGHIJ123\""),
              "accountReference must be at most 12 characters"),
          Arguments.of(named("a hyphen", "\"INV-42\""), "accountReference must contain only letters and digits"),
          Arguments.of(named("a space inside", "\"INV 42\""),
              "accountReference must contain only letters and digits"),
          Arguments.of(named("a non-ASCII letter", "\"ÉCOLE1\""),
              "accountReference must contain only letters and digits"),
          Arguments.of(named("a number", "42"), "accountReference must be a string"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String message) {
      assertThat(errorsOf(with("accountReference", literal)))
          .containsExactly(Map.entry("accountReference", List.of(message)));
    }

    @Test
    void acceptsTwelveLettersAndDigits() {
      assertThat(StkPushRequest.from(with("accountReference", "\"ABCDEF123456\"")).accountReference())
          .isEqualTo("ABCDEF123456");
    }
  }

  @Nested
  class PhoneNumber {

    static Stream<Arguments> accepted() {
      return Stream.of(
          Arguments.of(named("07XXXXXXXX", "0712345678"), "254712345678"),
          Arguments.of(named("01XXXXXXXX", "0110345678"), "254110345678"),
          Arguments.of(named("2547XXXXXXXX", "254712345678"), "254712345678"),
          Arguments.of(named("2541XXXXXXXX", "254110345678"), "254110345678"),
          Arguments.of(named("+2547XXXXXXXX", "+254712345678"), "254712345678"),
          Arguments.of(named("+2541XXXXXXXX", "+254110345678"), "254110345678"),
          Arguments.of(named("Daraja's test number", "254708374149"), "254708374149"),
          Arguments.of(named("a sandbox magic number", "0700001032"), "254700001032"),
          Arguments.of(named("surrounded by spaces", " 0712345678 "), "254712345678"));
    }

    @ParameterizedTest(name = "normalises {0}")
    @MethodSource("accepted")
    void normalises(String input, String normalised) {
      assertThat(StkPushRequest.from(with("phoneNumber", JSON.writeValueAsString(input))).phoneNumber().value())
          .isEqualTo(normalised);
    }

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("Tanzanian", "+255712345678")),
          Arguments.of(named("Ugandan", "256712345678")),
          Arguments.of(named("British", "+447911123456")),
          Arguments.of(named("Kenyan landline (Nairobi)", "0201234567")),
          Arguments.of(named("Kenyan landline in international form", "254201234567")),
          Arguments.of(named("too short", "071234567")),
          Arguments.of(named("too long", "07123456789")),
          Arguments.of(named("without the leading 0", "712345678")),
          Arguments.of(named("with 00 international prefix", "00254712345678")),
          Arguments.of(named("with spaces inside", "0712 345 678")),
          Arguments.of(named("with letters", "07123456AB")),
          Arguments.of(named("an unassigned mobile range", "0190123456")));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refusesNumbersThatAreNotKenyanMobiles(String input) {
      assertThat(errorsOf(with("phoneNumber", JSON.writeValueAsString(input))))
          .containsOnlyKeys("phoneNumber")
          .extractingByKey("phoneNumber").asList().singleElement().asString()
          .startsWith("phoneNumber must be a Kenyan mobile number");
    }

    static Stream<Arguments> missing() {
      return Stream.of(
          Arguments.of(named("absent", null), "phoneNumber is required"),
          Arguments.of(named("empty", "\"\""), "phoneNumber is required"),
          Arguments.of(named("a number", "712345678"), "phoneNumber must be a string"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("missing")
    void refusesMissingOrNonTextNumbers(String literal, String message) {
      assertThat(errorsOf(with("phoneNumber", literal))).containsExactly(Map.entry("phoneNumber", List.of(message)));
    }
  }

  @Nested
  class CallbackUrl {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("absent", null), "callbackUrl is required"),
          Arguments.of(named("relative", "\"/callbacks\""), "callbackUrl must be an absolute http or https URL"),
          Arguments.of(named("ftp", "\"ftp://merchant.example/cb\""),
              "callbackUrl must be an absolute http or https URL"),
          Arguments.of(named("without a host", "\"https:///cb\""), "callbackUrl must be an absolute http or https URL"),
          Arguments.of(named("opaque", "\"mailto:ops@merchant.example\""),
              "callbackUrl must be an absolute http or https URL"),
          Arguments.of(named("not a URL", "\"https://exa mple.com/\""),
              "callbackUrl must be an absolute http or https URL"),
          Arguments.of(named("a number", "1"), "callbackUrl must be a string"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String message) {
      assertThat(errorsOf(with("callbackUrl", literal))).containsExactly(Map.entry("callbackUrl", List.of(message)));
    }

    static Stream<Arguments> accepted() {
      return Stream.of(
          Arguments.of(named("http with a port", "http://localhost:9000/cb")),
          Arguments.of(named("https with a query", "https://merchant.example/cb?order=42")),
          Arguments.of(named("upper-case scheme", "HTTPS://merchant.example/cb")));
    }

    @ParameterizedTest(name = "accepts {0}")
    @MethodSource("accepted")
    void accepts(String url) {
      assertThat(StkPushRequest.from(with("callbackUrl", JSON.writeValueAsString(url))).callbackUrl()).isEqualTo(url);
    }
  }

  @Nested
  class CurrencyCode {

    @Test
    void defaultsToKsh() {
      assertThat(StkPushRequest.from(with("currencyCode", "null")).currency()).isEqualTo(StkCurrency.KSH);
    }

    @Test
    void acceptsKsh() {
      assertThat(StkPushRequest.from(with("currencyCode", "\"KSH\"")).currency()).isEqualTo(StkCurrency.KSH);
    }

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("KES (the ISO code)", "\"KES\""), "currencyCode must be one of KSH, TZS, UGX"),
          Arguments.of(named("lower case ksh", "\"ksh\""), "currencyCode must be one of KSH, TZS, UGX"),
          Arguments.of(named("lower case tzs", "\"tzs\""), "currencyCode must be one of KSH, TZS, UGX"),
          Arguments.of(named("UGS", "\"UGS\""), "currencyCode must be one of KSH, TZS, UGX"),
          Arguments.of(named("a number", "404"), "currencyCode must be a string"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String message) {
      assertThat(errorsOf(with("currencyCode", literal))).containsExactly(Map.entry("currencyCode", List.of(message)));
    }
  }

  @Nested
  class ReferenceId {

    @Test
    void keepsAReferenceOfUpTo64Characters() {
      String reference = "r".repeat(64);
      assertThat(StkPushRequest.from(with("referenceId", JSON.writeValueAsString(reference))).referenceId())
          .isEqualTo(reference);
    }

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("65 characters", "\"" + "r".repeat(65) + "\""),
              "referenceId must be at most 64 characters"),
          Arguments.of(named("a number", "7"), "referenceId must be a string"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String message) {
      assertThat(errorsOf(with("referenceId", literal))).containsExactly(Map.entry("referenceId", List.of(message)));
    }
  }
}
