package dev.lipa.infra.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;

import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/** The reference payment's checks of an STK push body: collections-service's, for the fields the bench sends. */
class ReferenceStkRequestTests {

  private static final String URL = "http://127.0.0.1:8080/bench-callbacks/run/reference-1";

  @Test
  void readsTheBenchsPushWithTheNumberNormalisedAndTheAmountWhole() {
    ReferenceStkRequest request = read(body("0712345678", "10.00", "Bench order"));

    assertThat(request.phoneNumber()).isEqualTo("254712345678");
    assertThat(request.amount()).isEqualTo(new BigDecimal("10")).hasScaleOf(0);
    assertThat(request.description()).isEqualTo("Bench order");
    assertThat(request.accountReference()).isEqualTo("BENCH");
    assertThat(request.callbackUrl()).isEqualTo(URL);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0712345678", "0112345678", "254712345678", "+254712345678", "254112345678"})
  void takesEveryFormOfAKenyanMobileNumber(String phone) {
    assertThat(read(body(phone, "1", "x")).phoneNumber()).matches("254[17]\\d{8}");
  }

  static Stream<Arguments> refusedAmounts() {
    return Stream.of(
        Arguments.of(named("zero", "0")),
        Arguments.of(named("negative", "-5")),
        Arguments.of(named("cents", "10.5")),
        Arguments.of(named("a string", "\"10\"")),
        Arguments.of(named("null", "null")),
        Arguments.of(named("above the platform's ceiling", "1000000000000000")),
        Arguments.of(named("a huge exponent", "1e100000000")),
        Arguments.of(named("a tiny fraction", "1e-100000000")),
        Arguments.of(named("beyond a double", "1e400")));
  }

  @ParameterizedTest
  @MethodSource("refusedAmounts")
  void refusesAnAmountThatIsNotAWholeNumberAboveZeroWithinTheCeiling(String amount) {
    assertThatThrownBy(() -> read(body("0712345678", amount, "x")))
        .isInstanceOfSatisfying(ReferenceStkRequest.Refused.class,
            refused -> assertThat(refused.errors()).containsOnlyKeys("amount"));
  }

  @Test
  void refusesABeyondADoubleAmountReadAsADoubleToo() {
    // a mapper without BigDecimal floats reads 1e400 as infinity: refused all the same, never turned into a number
    assertThatThrownBy(() -> ReferenceStkRequest.from(JsonMapper.builder().build()
        .readTree(body("0712345678", "1e400", "x"))))
        .isInstanceOfSatisfying(ReferenceStkRequest.Refused.class,
            refused -> assertThat(refused.errors()).containsOnlyKeys("amount"));
  }

  @Test
  void namesEveryFailingFieldAtOnce() {
    assertThatThrownBy(() -> read("{\"description\":\"fourteen chars\",\"phoneNumber\":\"0212345678\","
        + "\"amount\":0,\"accountReference\":\"BEN CH\",\"callbackUrl\":\"ftp://example.com\"}"))
        .isInstanceOfSatisfying(ReferenceStkRequest.Refused.class, refused -> assertThat(refused.errors())
            .containsOnlyKeys("description", "phoneNumber", "amount", "accountReference", "callbackUrl"));
    assertThatThrownBy(() -> read("{}"))
        .isInstanceOfSatisfying(ReferenceStkRequest.Refused.class, refused -> assertThat(refused.errors())
            .containsOnlyKeys("description", "phoneNumber", "amount", "accountReference", "callbackUrl"));
    assertThatThrownBy(() -> read("[1]"))
        .isInstanceOfSatisfying(ReferenceStkRequest.Refused.class,
            refused -> assertThat(refused.errorLists()).containsOnlyKeys("body"));
  }

  @Test
  void takesAThirteenCharacterDescriptionAndNoLonger() {
    assertThat(read(body("0712345678", "1", "thirteen char")).description()).hasSize(13);
    assertThatThrownBy(() -> read(body("0712345678", "1", "fourteen chars")))
        .isInstanceOf(ReferenceStkRequest.Refused.class);
  }

  private static ReferenceStkRequest read(String json) {
    return ReferenceStkRequest.from(ReferencePipeline.JSON.readTree(json));
  }

  private static String body(String phone, String amount, String description) {
    return "{\"description\":\"" + description + "\",\"phoneNumber\":\"" + phone + "\",\"amount\":" + amount
        + ",\"accountReference\":\"BENCH\",\"callbackUrl\":\"" + URL + "\"}";
  }
}
