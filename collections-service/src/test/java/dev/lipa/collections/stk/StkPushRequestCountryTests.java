package dev.lipa.collections.stk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import dev.lipa.common.phone.MobileCountry;
import dev.lipa.common.phone.MobileNumber;
import dev.lipa.common.web.ValidationException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The rules of TZS and UGX STK pushes, and what every currency shares (amounts, country of the number). */
class StkPushRequestCountryTests {

  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  static ObjectNode tanzanian() {
    return (ObjectNode) JSON.readTree("""
        {"description":"Order 42","phoneNumber":"0712345678","amount":1000,"currencyCode":"TZS",
         "channel":"TZ-TIGO-C2B","callbackUrl":"https://merchant.example/cb"}""");
  }

  static ObjectNode ugandan() {
    return (ObjectNode) JSON.readTree("""
        {"description":"Order 42","phoneNumber":"0772123456","amount":5000,"currencyCode":"UGX",
         "narration":"School fees","customerName":"Jane Doe","callbackUrl":"https://merchant.example/cb"}""");
  }

  static ObjectNode kenyan() {
    return (ObjectNode) JSON.readTree("""
        {"description":"Order 42","phoneNumber":"0712345678","amount":10,"accountReference":"INV42",
         "callbackUrl":"https://merchant.example/cb"}""");
  }

  /** The body with one field replaced by a JSON literal ({@code null} removes the field). */
  static JsonNode with(ObjectNode body, String field, String jsonLiteral) {
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

  @Nested
  class Tanzania {

    @Test
    void acceptsATigoNumberOnTheTigoChannelWithoutAnAccountReference() {
      StkPushRequest request = StkPushRequest.from(tanzanian());

      assertThat(request.currency()).isEqualTo(StkCurrency.TZS);
      assertThat(request.channel()).isEqualTo(TzChannel.TIGO);
      assertThat(request.phoneNumber()).isEqualTo(new MobileNumber("255712345678", MobileCountry.TANZANIA));
      assertThat(request.accountReference()).isNull();
      assertThat(request.narration()).isNull();
    }

    static Stream<Arguments> normalised() {
      return Stream.of(
          Arguments.of(named("0XXXXXXXXX (Tigo 071)", "0712345678"), "TZ-TIGO-C2B", "255712345678"),
          Arguments.of(named("255XXXXXXXXX (Tigo 065)", "255652345678"), "TZ-TIGO-C2B", "255652345678"),
          Arguments.of(named("+255XXXXXXXXX (Tigo 067)", "+255672345678"), "TZ-TIGO-C2B", "255672345678"),
          Arguments.of(named("Tigo 077", "0772345678"), "TZ-TIGO-C2B", "255772345678"),
          Arguments.of(named("Airtel 068", "0682345678"), "TZ-AIRTEL-C2B", "255682345678"),
          Arguments.of(named("Airtel 069", "+255692345678"), "TZ-AIRTEL-C2B", "255692345678"),
          Arguments.of(named("Airtel 078", "255782345678"), "TZ-AIRTEL-C2B", "255782345678"));
    }

    @ParameterizedTest(name = "normalises {0} on {1}")
    @MethodSource("normalised")
    void normalisesTanzanianNumbersOfTheChannelsNetwork(String input, String channel, String expected) {
      ObjectNode body = tanzanian().put("phoneNumber", input).put("channel", channel);

      assertThat(StkPushRequest.from(body).phoneNumber().value()).isEqualTo(expected);
    }

    static Stream<Arguments> wrongNetwork() {
      return Stream.of(
          Arguments.of(named("an Airtel number on Tigo", "0682345678"), "TZ-TIGO-C2B", "belongs to Airtel"),
          Arguments.of(named("a Tigo number on Airtel", "0712345678"), "TZ-AIRTEL-C2B", "belongs to Tigo"),
          Arguments.of(named("a Vodacom number on Tigo", "0752345678"), "TZ-TIGO-C2B", "belongs to Vodacom"),
          Arguments.of(named("a Halotel number on Airtel", "0622345678"), "TZ-AIRTEL-C2B", "belongs to Halotel"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("wrongNetwork")
    void refusesANumberOfAnotherNetworkThanTheChannels(String phone, String channel, String message) {
      ObjectNode body = tanzanian().put("phoneNumber", phone).put("channel", channel);

      assertThat(errorsOf(body)).containsOnlyKeys("phoneNumber")
          .extractingByKey("phoneNumber").asList().singleElement().asString().contains(message).contains(channel);
    }

    static Stream<Arguments> badFields() {
      return Stream.of(
          Arguments.of(named("channel absent", "channel"), null, "channel is required"),
          Arguments.of(named("channel empty", "channel"), "\"\"", "channel is required"),
          Arguments.of(named("channel in lower case", "channel"), "\"tz-tigo-c2b\"",
              "channel must be TZ-TIGO-C2B or TZ-AIRTEL-C2B"),
          Arguments.of(named("a Halotel channel", "channel"), "\"TZ-HALOTEL-C2B\"",
              "channel must be TZ-TIGO-C2B or TZ-AIRTEL-C2B"),
          Arguments.of(named("channel a number", "channel"), "1", "channel must be a string"),
          Arguments.of(named("a fractional amount", "amount"), "1000.5", "amount must be a whole number"),
          Arguments.of(named("amount 0", "amount"), "0", "amount must be greater than 0"),
          Arguments.of(named("an invalid accountReference (still checked)", "accountReference"), "\"A-1\"",
              "accountReference must contain only letters and digits"),
          Arguments.of(named("a Tanzanian landline", "phoneNumber"), "\"0222123456\"",
              "phoneNumber must be a Tanzanian mobile number (06XXXXXXXX, 07XXXXXXXX, 255XXXXXXXXX or +255XXXXXXXXX)"),
          Arguments.of(named("an unassigned range (070)", "phoneNumber"), "\"0702345678\"",
              "phoneNumber must be a Tanzanian mobile number (06XXXXXXXX, 07XXXXXXXX, 255XXXXXXXXX or +255XXXXXXXXX)"),
          Arguments.of(named("a Kenyan number", "phoneNumber"), "\"+254712345678\"",
              "phoneNumber must be a Tanzanian mobile number for TZS; +254712345678 is a Kenyan number"),
          Arguments.of(named("a Ugandan number", "phoneNumber"), "\"256772123456\"",
              "phoneNumber must be a Tanzanian mobile number for TZS; 256772123456 is a Ugandan number"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("badFields")
    void refusesBadFieldsNamingThem(String field, String literal, String message) {
      assertThat(errorsOf(with(tanzanian(), field, literal))).containsExactly(Map.entry(field, List.of(message)));
    }

    @Test
    void ignoresTheFieldsOfUganda() {
      ObjectNode body = tanzanian().put("narration", "x").put("customerName", "y");

      StkPushRequest request = StkPushRequest.from(body);
      assertThat(request.narration()).isNull();
      assertThat(request.customerName()).isNull();
    }

    @Test
    void keepsAnAccountReferenceWhenGiven() {
      assertThat(StkPushRequest.from(tanzanian().put("accountReference", "INV7")).accountReference())
          .isEqualTo("INV7");
    }
  }

  @Nested
  class Uganda {

    @Test
    void acceptsAUgandanRequestWithNarrationAndCustomerName() {
      StkPushRequest request = StkPushRequest.from(ugandan());

      assertThat(request.currency()).isEqualTo(StkCurrency.UGX);
      assertThat(request.phoneNumber().value()).isEqualTo("256772123456");
      assertThat(request.narration()).isEqualTo("School fees");
      assertThat(request.customerName()).isEqualTo("Jane Doe");
      assertThat(request.channel()).isNull();
      assertThat(request.accountReference()).isNull();
    }

    static Stream<Arguments> normalised() {
      return Stream.of(
          Arguments.of(named("07XXXXXXXX (MTN 077)", "0772123456"), "256772123456"),
          Arguments.of(named("2567XXXXXXXX (Airtel 070)", "256702123456"), "256702123456"),
          Arguments.of(named("+2567XXXXXXXX (Airtel 075)", "+256752123456"), "256752123456"),
          Arguments.of(named("a sandbox magic number", "0700001032"), "256700001032"));
    }

    @ParameterizedTest(name = "normalises {0}")
    @MethodSource("normalised")
    void normalisesUgandanNumbers(String input, String expected) {
      assertThat(StkPushRequest.from(ugandan().put("phoneNumber", input)).phoneNumber().value())
          .isEqualTo(expected);
    }

    static Stream<Arguments> badFields() {
      return Stream.of(
          Arguments.of(named("narration absent", "narration"), null, "narration is required"),
          Arguments.of(named("narration blank", "narration"), "\"  \"", "narration is required"),
          Arguments.of(named("narration of 101 characters", "narration"), "\"" + "n".repeat(101) + "\"",
              "narration must be at most 100 characters"),
          Arguments.of(named("customerName absent", "customerName"), null, "customerName is required"),
          Arguments.of(named("customerName a number", "customerName"), "7", "customerName must be a string"),
          Arguments.of(named("customerName of 101 characters", "customerName"), "\"" + "c".repeat(101) + "\"",
              "customerName must be at most 100 characters"),
          Arguments.of(named("a fractional amount", "amount"), "5000.25", "amount must be a whole number"),
          Arguments.of(named("a Ugandan landline", "phoneNumber"), "\"0312123456\"",
              "phoneNumber must be a Ugandan mobile number (07XXXXXXXX, 2567XXXXXXXX or +2567XXXXXXXX)"),
          Arguments.of(named("a Kenyan number", "phoneNumber"), "\"254712345678\"",
              "phoneNumber must be a Ugandan mobile number for UGX; 254712345678 is a Kenyan number"),
          Arguments.of(named("a Tanzanian number", "phoneNumber"), "\"+255682345678\"",
              "phoneNumber must be a Ugandan mobile number for UGX; +255682345678 is a Tanzanian number"));
    }

    @ParameterizedTest(name = "refuses {0}")
    @MethodSource("badFields")
    void refusesBadFieldsNamingThem(String field, String literal, String message) {
      assertThat(errorsOf(with(ugandan(), field, literal))).containsExactly(Map.entry(field, List.of(message)));
    }

    @Test
    void ignoresTheChannelOfTanzania() {
      assertThat(StkPushRequest.from(ugandan().put("channel", "nonsense")).channel()).isNull();
    }
  }

  @Nested
  class Kenya {

    static Stream<Arguments> otherCountries() {
      return Stream.of(
          Arguments.of(named("a Tanzanian number", "+255712345678"),
              "phoneNumber must be a Kenyan mobile number for KSH; +255712345678 is a Tanzanian number"),
          Arguments.of(named("a Ugandan number", "256772123456"),
              "phoneNumber must be a Kenyan mobile number for KSH; 256772123456 is a Ugandan number"));
    }

    @ParameterizedTest(name = "refuses {0} naming Kenya")
    @MethodSource("otherCountries")
    void refusesANumberOfAnotherCountry(String phone, String message) {
      assertThat(errorsOf(kenyan().put("phoneNumber", phone)))
          .containsExactly(Map.entry("phoneNumber", List.of(message)));
    }

    @Test
    void readsALocalNumberAsKenyanForKsh() {
      assertThat(StkPushRequest.from(kenyan().put("phoneNumber", "0712345678")).phoneNumber().country())
          .isEqualTo(MobileCountry.KENYA);
    }
  }
}
