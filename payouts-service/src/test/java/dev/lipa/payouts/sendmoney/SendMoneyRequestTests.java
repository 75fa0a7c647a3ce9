package dev.lipa.payouts.sendmoney;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.json.PlatformJson;
import dev.lipa.common.web.ValidationException;
import dev.lipa.payouts.money.Currency;
import dev.lipa.payouts.payout.PayoutKind;
import dev.lipa.payouts.payout.PayoutRequest;
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

/** Every rule of a send-money (B2C) request, per currency, read from JSON as the platform's mapper reads it. */
class SendMoneyRequestTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();

  static ObjectNode kenyan() {
    return body("""
        {"phoneNumber":"0712345678","amount":250,"remarks":"salary","occasion":"June",
         "callbackUrl":"https://merchant.example/callbacks/b2c"}""");
  }

  static ObjectNode tanzanian() {
    return body("""
        {"phoneNumber":"255712345678","amount":1000,"currencyCode":"TZS","narration":"wages","firstName":"Asha",
         "lastName":"Juma","serviceCode":"TZ-TIGO-B2C","callbackUrl":"https://merchant.example/cb"}""");
  }

  static ObjectNode ugandan() {
    return body("""
        {"phoneNumber":"+256772123456","amount":5000,"currencyCode":"UGX","narration":"refund",
         "customerName":"Okello","callbackUrl":"https://merchant.example/cb"}""");
  }

  static ObjectNode body(String json) {
    return (ObjectNode) JSON.readTree(json);
  }

  /** The body with fields replaced by JSON literals ({@code null} removes the field), in pairs. */
  static JsonNode with(ObjectNode body, String... fieldsAndLiterals) {
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
      SendMoneyRequest.from(body);
    } catch (ValidationException e) {
      return e.errors();
    }
    throw new AssertionError("expected a validation failure");
  }

  static String quoted(String text) {
    return JSON.writeValueAsString(text);
  }

  @Test
  void readsAKenyanPayoutInKshByDefault() {
    PayoutRequest request = SendMoneyRequest.from(kenyan());

    assertThat(request).isEqualTo(new PayoutRequest(PayoutKind.SEND_MONEY, Currency.KSH, new BigDecimal("250"),
        "https://merchant.example/callbacks/b2c", null, "254712345678", null, null, "salary", "June", null, null,
        null, null, null));
  }

  @Test
  void readsATanzanianPayoutWithItsNamesAndNetwork() {
    PayoutRequest request = SendMoneyRequest.from(with(tanzanian(), "referenceId", "\"pay-7\""));

    assertThat(request).isEqualTo(new PayoutRequest(PayoutKind.SEND_MONEY, Currency.TZS, new BigDecimal("1000"),
        "https://merchant.example/cb", "pay-7", "255712345678", null, null, null, null, "wages", "Asha", "Juma",
        null, "TZ-TIGO-B2C"));
  }

  @Test
  void readsAUgandanPayoutWithTheCustomersName() {
    PayoutRequest request = SendMoneyRequest.from(ugandan());

    assertThat(request).isEqualTo(new PayoutRequest(PayoutKind.SEND_MONEY, Currency.UGX, new BigDecimal("5000"),
        "https://merchant.example/cb", null, "256772123456", null, null, null, null, "refund", null, null, "Okello",
        null));
  }

  @Test
  void ignoresTheFieldsOfAnotherCountryAndUnknownOnes() {
    PayoutRequest request = SendMoneyRequest.from(with(kenyan(), "firstName", "\"Asha\"", "serviceCode",
        "\"TZ-VODA-B2C\"", "customerName", "7", "colour", "\"blue\""));

    assertThat(request.firstName()).isNull();
    assertThat(request.serviceCode()).isNull();
    assertThat(request.customerName()).isNull();
  }

  @Test
  void namesEveryFailingFieldAtOnce() {
    JsonNode body = body("""
        {"phoneNumber":"0202345678","amount":10.5,"remarks":"","callbackUrl":"/cb","referenceId":%s}"""
        .formatted(quoted("r".repeat(65))));

    assertThat(errorsOf(body)).containsOnlyKeys("phoneNumber", "amount", "remarks", "occasion", "callbackUrl",
        "referenceId");
  }

  @Test
  void refusesABodyThatIsNotAnObject() {
    assertThatThrownBy(() -> SendMoneyRequest.from(JSON.readTree("[{\"amount\":10}]")))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.errors()).containsExactly(Map.entry("body", List.of("must be a JSON object"))));
  }

  @Nested
  class CurrencyCode {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("USD, which no rail pays out", "\"USD\"")),
          Arguments.of(named("KES, the ISO spelling", "\"KES\"")),
          Arguments.of(named("lower case", "\"ksh\"")),
          Arguments.of(named("EUR", "\"EUR\"")));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal) {
      // only the currency is named: a number is not judged against a country the request did not pick
      assertThat(errorsOf(with(kenyan(), "currencyCode", literal)))
          .containsExactly(Map.entry("currencyCode", List.of("currencyCode must be one of KSH, TZS, UGX")));
    }

    @Test
    void refusesANumber() {
      assertThat(errorsOf(with(kenyan(), "currencyCode", "404")))
          .containsExactly(Map.entry("currencyCode", List.of("currencyCode must be a string")));
    }

    @Test
    void aBlankOrNullCurrencyIsTheDefault() {
      assertThat(SendMoneyRequest.from(with(kenyan(), "currencyCode", "\" \"")).currency()).isEqualTo(Currency.KSH);
      assertThat(SendMoneyRequest.from(with(kenyan(), "currencyCode", "null")).currency()).isEqualTo(Currency.KSH);
    }
  }

  @Nested
  class Amount {

    static Stream<Arguments> refused() {
      return Stream.of(
          Arguments.of(named("absent", null), "amount is required"),
          Arguments.of(named("zero", "0"), "amount must be greater than 0"),
          Arguments.of(named("minus zero", "-0"), "amount must be greater than 0"),
          Arguments.of(named("negative", "-250"), "amount must be greater than 0"),
          Arguments.of(named("a fraction", "250.5"), "amount must be a whole number"),
          Arguments.of(named("a cent", "0.01"), "amount must be a whole number"),
          Arguments.of(named("10^-100000000", "1e-100000000"), "amount must be a whole number"),
          Arguments.of(named("beyond the platform's ceiling", "1000000000000000"),
              "amount must be at most 999999999999999"),
          Arguments.of(named("10^100000000", "1e100000000"), "amount must be at most 999999999999999"),
          Arguments.of(named("zeros that overflow a scale when stripped", "100E2147483647"),
              "amount must be at most 999999999999999"),
          Arguments.of(named("35 digits", "12345678901234567890123456789012345"),
              "amount must have at most 34 digits"),
          Arguments.of(named("a numeric string", "\"250\""), "amount must be a number, not a string"),
          Arguments.of(named("a boolean", "false"), "amount must be a number, not a boolean"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("refused")
    void refuses(String literal, String message) {
      assertThat(errorsOf(with(kenyan(), "amount", literal))).containsExactly(Map.entry("amount", List.of(message)));
    }

    static Stream<Arguments> accepted() {
      return Stream.of(
          Arguments.of(named("1", "1"), "1"),
          Arguments.of(named("a whole decimal", "250.00"), "250"),
          Arguments.of(named("an exponent", "2.5E+2"), "250"),
          Arguments.of(named("the ceiling", "999999999999999"), "999999999999999"));
    }

    @ParameterizedTest(name = "accepts {0} as a whole number")
    @MethodSource("accepted")
    void acceptsWholeAmountsAsScaleZero(String literal, String expected) {
      BigDecimal amount = SendMoneyRequest.from(with(kenyan(), "amount", literal)).amount();
      assertThat(amount.toPlainString()).isEqualTo(expected);
      assertThat(amount.scale()).isZero();
    }

    @Test
    void takesAtLeast1000InTzsOnly() {
      assertThat(errorsOf(with(tanzanian(), "amount", "999")))
          .containsExactly(Map.entry("amount", List.of("amount must be at least 1000 for TZS")));
      assertThat(SendMoneyRequest.from(with(tanzanian(), "amount", "1000")).amount()).isEqualByComparingTo("1000");
      assertThat(SendMoneyRequest.from(with(ugandan(), "amount", "1")).amount()).isEqualByComparingTo("1");
      assertThat(SendMoneyRequest.from(with(kenyan(), "amount", "1")).amount()).isEqualByComparingTo("1");
    }
  }

  @Nested
  class PhoneNumber {

    static Stream<Arguments> accepted() {
      return Stream.of(
          Arguments.of(named("Kenyan 07", kenyan()), "0712345678", "254712345678"),
          Arguments.of(named("Kenyan 01", kenyan()), "0110345678", "254110345678"),
          Arguments.of(named("Kenyan +254", kenyan()), "+254712345678", "254712345678"),
          Arguments.of(named("Tanzanian local", tanzanian()), "0712345678", "255712345678"),
          Arguments.of(named("Tanzanian +255", tanzanian()), "+255772345678", "255772345678"),
          Arguments.of(named("Ugandan local", ugandan()), "0772123456", "256772123456"),
          Arguments.of(named("Ugandan 256", ugandan()), "256772123456", "256772123456"));
    }

    @ParameterizedTest(name = "normalises a {0} number")
    @MethodSource("accepted")
    void normalises(ObjectNode body, String input, String normalised) {
      assertThat(SendMoneyRequest.from(with(body, "phoneNumber", quoted(input))).phoneNumber())
          .isEqualTo(normalised);
    }

    static Stream<Arguments> otherCountries() {
      return Stream.of(
          Arguments.of(named("a Tanzanian number for KSH", kenyan()), "255712345678",
              "phoneNumber must be a Kenyan mobile number for KSH; 255712345678 is a Tanzanian number"),
          Arguments.of(named("a Kenyan number for TZS", tanzanian()), "+254712345678",
              "phoneNumber must be a Tanzanian mobile number for TZS; +254712345678 is a Kenyan number"),
          Arguments.of(named("a Kenyan number for UGX", ugandan()), "254712345678",
              "phoneNumber must be a Ugandan mobile number for UGX; 254712345678 is a Kenyan number"));
    }

    @ParameterizedTest(name = "refuses {0}, saying which country it is of")
    @MethodSource("otherCountries")
    void refusesANumberOfAnotherCountry(ObjectNode body, String input, String message) {
      assertThat(errorsOf(with(body, "phoneNumber", quoted(input))))
          .containsExactly(Map.entry("phoneNumber", List.of(message)));
    }

    static Stream<Arguments> notMobiles() {
      return Stream.of(
          Arguments.of(named("a Nairobi landline", "0202345678")),
          Arguments.of(named("too short", "071234567")),
          Arguments.of(named("too long", "07123456789")),
          Arguments.of(named("with spaces", "0712 345 678")),
          Arguments.of(named("with 00", "00254712345678")),
          Arguments.of(named("with letters", "07123456AB")),
          Arguments.of(named("a British number", "+447911123456")));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("notMobiles")
    void refusesWhatIsNoKenyanMobileNumber(String input) {
      assertThat(errorsOf(with(kenyan(), "phoneNumber", quoted(input)))).containsExactly(Map.entry("phoneNumber",
          List.of("phoneNumber must be a Kenyan mobile number (07XXXXXXXX, 01XXXXXXXX, 2547XXXXXXXX, 2541XXXXXXXX, "
              + "+2547XXXXXXXX or +2541XXXXXXXX)")));
    }

    @Test
    void refusesAMissingOrNonTextNumber() {
      assertThat(errorsOf(with(kenyan(), "phoneNumber", null)))
          .containsExactly(Map.entry("phoneNumber", List.of("phoneNumber is required")));
      assertThat(errorsOf(with(kenyan(), "phoneNumber", "712345678")))
          .containsExactly(Map.entry("phoneNumber", List.of("phoneNumber must be a string")));
    }
  }

  @Nested
  class Kenya {

    @ParameterizedTest(name = "requires {0}")
    @MethodSource
    void requires(String field) {
      assertThat(errorsOf(with(kenyan(), field, null)))
          .containsExactly(Map.entry(field, List.of(field + " is required")));
    }

    static Stream<String> requires() {
      return Stream.of("remarks", "occasion", "callbackUrl");
    }

    @Test
    void boundsRemarksAndOccasionAt100Characters() {
      assertThat(SendMoneyRequest.from(with(kenyan(), "remarks", quoted("r".repeat(100)))).remarks()).hasSize(100);
      assertThat(errorsOf(with(kenyan(), "remarks", quoted("r".repeat(101)), "occasion", quoted("o".repeat(101)))))
          .containsExactly(Map.entry("remarks", List.of("remarks must be at most 100 characters")),
              Map.entry("occasion", List.of("occasion must be at most 100 characters")));
    }
  }

  @Nested
  class Tanzania {

    @ParameterizedTest(name = "requires {0}")
    @MethodSource
    void requires(String field) {
      assertThat(errorsOf(with(tanzanian(), field, null)))
          .containsExactly(Map.entry(field, List.of(field + " is required")));
    }

    static Stream<String> requires() {
      return Stream.of("narration", "firstName", "lastName", "serviceCode", "callbackUrl");
    }

    static Stream<Arguments> networks() {
      return Stream.of(
          Arguments.of("TZ-TIGO-B2C", "0652345678"), Arguments.of("TZ-TIGO-B2C", "0672345678"),
          Arguments.of("TZ-TIGO-B2C", "0712345678"), Arguments.of("TZ-TIGO-B2C", "0772345678"),
          Arguments.of("TZ-AIRTEL-B2C", "0682345678"), Arguments.of("TZ-AIRTEL-B2C", "0692345678"),
          Arguments.of("TZ-AIRTEL-B2C", "0782345678"), Arguments.of("TZ-HALOTEL-B2C", "0612345678"),
          Arguments.of("TZ-HALOTEL-B2C", "0622345678"));
    }

    @ParameterizedTest(name = "{0} pays {1}")
    @MethodSource("networks")
    void eachServicePaysTheNumbersOfItsNetwork(String serviceCode, String phone) {
      PayoutRequest request = SendMoneyRequest.from(with(tanzanian(), "serviceCode", quoted(serviceCode),
          "phoneNumber", quoted(phone)));

      assertThat(request.serviceCode()).isEqualTo(serviceCode);
      assertThat(request.phoneNumber()).isEqualTo("255" + phone.substring(1));
    }

    @Test
    void refusesANumberOfAnotherNetworkSayingWhichNumbersTheServiceTakes() {
      assertThat(errorsOf(with(tanzanian(), "phoneNumber", "\"255682345678\""))).containsExactly(Map.entry(
          "phoneNumber", List.of("phoneNumber 255682345678 is not on the network of serviceCode TZ-TIGO-B2C, which "
              + "takes Tigo numbers (255 followed by 65, 67, 71, 77)")));
      assertThat(errorsOf(with(tanzanian(), "serviceCode", "\"TZ-HALOTEL-B2C\""))).containsExactly(Map.entry(
          "phoneNumber", List.of("phoneNumber 255712345678 is not on the network of serviceCode TZ-HALOTEL-B2C, "
              + "which takes Halotel numbers (255 followed by 61, 62)")));
    }

    static Stream<Arguments> unknownServices() {
      return Stream.of(Arguments.of(named("Vodacom (not a B2C network here)", "\"TZ-VODA-B2C\"")),
          Arguments.of(named("lower case", "\"tz-tigo-b2c\"")),
          Arguments.of(named("the collection channel", "\"TZ-TIGO-C2B\"")));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("unknownServices")
    void refusesAnUnknownServiceCode(String literal) {
      assertThat(errorsOf(with(tanzanian(), "serviceCode", literal))).containsExactly(Map.entry("serviceCode",
          List.of("serviceCode must be one of TZ-TIGO-B2C, TZ-AIRTEL-B2C, TZ-HALOTEL-B2C")));
    }

    @Test
    void boundsTheNamesAt100Characters() {
      assertThat(errorsOf(with(tanzanian(), "firstName", quoted("A".repeat(101)), "lastName",
          quoted("J".repeat(101)), "narration", quoted("n".repeat(101))))).containsOnlyKeys("firstName", "lastName",
              "narration");
    }
  }

  @Nested
  class Uganda {

    @ParameterizedTest(name = "requires {0}")
    @MethodSource
    void requires(String field) {
      assertThat(errorsOf(with(ugandan(), field, null)))
          .containsExactly(Map.entry(field, List.of(field + " is required")));
    }

    static Stream<String> requires() {
      return Stream.of("narration", "customerName", "callbackUrl");
    }

    @Test
    void boundsTheCustomerNameAt100Characters() {
      assertThat(errorsOf(with(ugandan(), "customerName", quoted("O".repeat(101)))))
          .containsExactly(Map.entry("customerName", List.of("customerName must be at most 100 characters")));
    }
  }

  @Nested
  class CallbackUrlAndReference {

    static Stream<Arguments> refusedUrls() {
      return Stream.of(
          Arguments.of(named("relative", "/callbacks")),
          Arguments.of(named("ftp", "ftp://merchant.example/cb")),
          Arguments.of(named("opaque", "mailto:ops@merchant.example")),
          Arguments.of(named("without a host", "https:///cb")),
          Arguments.of(named("with a space", "https://merchant example/cb")));
    }

    @ParameterizedTest(name = "refuses a callbackUrl {0}")
    @MethodSource("refusedUrls")
    void refusesACallbackUrl(String url) {
      assertThat(errorsOf(with(kenyan(), "callbackUrl", quoted(url)))).containsExactly(
          Map.entry("callbackUrl", List.of("callbackUrl must be an absolute http or https URL")));
    }

    @Test
    void boundsTheCallbackUrlAt2048Characters() {
      String prefix = "https://merchant.example/";
      String longest = prefix + "c".repeat(2048 - prefix.length());
      assertThat(SendMoneyRequest.from(with(kenyan(), "callbackUrl", quoted(longest))).callbackUrl())
          .isEqualTo(longest);
      assertThat(errorsOf(with(kenyan(), "callbackUrl", quoted(longest + "c")))).containsExactly(
          Map.entry("callbackUrl", List.of("callbackUrl must be at most 2048 characters")));
    }

    @Test
    void boundsTheReferenceIdAt64Characters() {
      assertThat(SendMoneyRequest.from(with(kenyan(), "referenceId", quoted("r".repeat(64)))).referenceId())
          .hasSize(64);
      assertThat(errorsOf(with(kenyan(), "referenceId", quoted("r".repeat(65))))).containsExactly(
          Map.entry("referenceId", List.of("referenceId must be at most 64 characters")));
      assertThat(errorsOf(with(kenyan(), "referenceId", "64"))).containsExactly(
          Map.entry("referenceId", List.of("referenceId must be a string")));
    }
  }
}
