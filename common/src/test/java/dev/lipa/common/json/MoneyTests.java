package dev.lipa.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

class MoneyTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();

  @Nested
  class Refusal {

    static Stream<Arguments> refusedWholeAmounts() {
      return Stream.of(
          Arguments.of(Named.named("a hundred-million-digit amount", "1e100000000"), "amount must be at most 999999999999999"),
          Arguments.of(Named.named("a tiny amount", "1e-100000000"), "amount must be a whole number"),
          Arguments.of(Named.named("a huge negative exponent", "-1e-2147483647"), "amount must be a whole number"),
          Arguments.of(Named.named("trailing zeros that overflow a scale when stripped", "100E2147483647"),
              "amount must be at most 999999999999999"),
          Arguments.of(Named.named("35 digits", "12345678901234567890123456789012345"),
              "amount must have at most 34 digits"),
          Arguments.of(Named.named("35 digits after the point", "0.12345678901234567890123456789012345"),
              "amount must have at most 34 digits"),
          Arguments.of(Named.named("16 digits", "1000000000000000"), "amount must be at most 999999999999999"),
          Arguments.of(Named.named("minus zero", "-0"), "amount must be greater than 0"),
          Arguments.of(Named.named("zero with a huge exponent", "0E+100000000"), "amount must be greater than 0"),
          Arguments.of(Named.named("zero with a huge negative exponent", "0E-100000000"), "amount must be greater than 0"),
          Arguments.of(Named.named("a fraction", "10.5"), "amount must be a whole number"));
    }

    @ParameterizedTest
    @MethodSource("refusedWholeAmounts")
    void refusesWholeAmountsOutOfBoundsWithoutExpandingThem(String amount, String message) {
      assertThat(Money.refusal("amount", new BigDecimal(amount), 0, Money.MAX)).isEqualTo(message);
    }

    static Stream<Arguments> acceptedWholeAmounts() {
      return Stream.of(
          Arguments.of(Named.named("the largest", "999999999999999"), "999999999999999"),
          Arguments.of(Named.named("an exponent", "1E+14"), "100000000000000"),
          Arguments.of(Named.named("trailing zeros after the point", "10.000000000000000000000000000000"), "10"),
          Arguments.of(Named.named("one", "1"), "1"));
    }

    @ParameterizedTest
    @MethodSource("acceptedWholeAmounts")
    void acceptsWholeAmountsWithinBounds(String amount, String whole) {
      BigDecimal value = new BigDecimal(amount);
      assertThat(Money.refusal("amount", value, 0, Money.MAX)).isNull();
      assertThat(Money.whole(value).toPlainString()).isEqualTo(whole);
    }

    @Test
    void countsOnlySignificantDecimals() {
      assertThat(Money.refusal("amount", new BigDecimal("10.50"), 2, Money.MAX)).isNull();
      assertThat(Money.refusal("amount", new BigDecimal("10.500000"), 2, Money.MAX)).isNull();
      assertThat(Money.refusal("amount", new BigDecimal("10.505"), 2, Money.MAX))
          .isEqualTo("amount must have at most 2 decimals");
      assertThat(Money.refusal("amount", new BigDecimal("1e-3"), 2, Money.MAX))
          .isEqualTo("amount must have at most 2 decimals");
    }

    @Test
    void appliesTheFieldsOwnMaximum() {
      BigDecimal max = new BigDecimal("999999999999");
      assertThat(Money.refusal("amount", max, 2, max)).isNull();
      assertThat(Money.refusal("amount", new BigDecimal("999999999999.01"), 2, max))
          .isEqualTo("amount must be at most 999999999999");
    }

    @Test
    void refusesAMaximumAboveThePlatformsOwn() {
      assertThatThrownBy(() -> Money.refusal("amount", BigDecimal.ONE, 0, new BigDecimal("1e20")))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  class Whole {

    @Test
    void refusesToExpandAnAmountOutOfBounds() {
      assertThatThrownBy(() -> Money.whole(new BigDecimal("1e100000000"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tellsWholeFromFractionalWithoutExpanding() {
      assertThat(Money.isWhole(new BigDecimal("1e100000000"))).isTrue();
      assertThat(Money.isWhole(new BigDecimal("100E2147483647"))).isTrue();
      assertThat(Money.isWhole(new BigDecimal("1e-100000000"))).isFalse();
      assertThat(Money.isWhole(new BigDecimal("10.0"))).isTrue();
    }
  }

  @Nested
  class FromEvent {

    @Test
    void readsNumbersAndDecimalStrings() {
      assertThat(Money.fromEvent(JSON.readTree("{\"a\":150}").get("a"))).isEqualByComparingTo("150");
      assertThat(Money.fromEvent(JSON.readTree("{\"a\":\"1500.00\"}").get("a"))).isEqualByComparingTo("1500");
    }

    static Stream<Named<String>> refusedEventAmounts() {
      return Stream.of(
          Named.named("a huge exponent", "1e100000000"),
          Named.named("a huge exponent in a string", "\"1e100000000\""),
          Named.named("NaN in a string", "\"NaN\""),
          Named.named("Infinity in a string", "\"Infinity\""),
          Named.named("a long string", "\"" + "1".repeat(100) + "\""),
          Named.named("zero", "0"),
          Named.named("three decimals", "1.005"),
          Named.named("a boolean", "true"),
          Named.named("null", "null"));
    }

    @ParameterizedTest
    @MethodSource("refusedEventAmounts")
    void refusesAnythingElseAsUnreadable(String amount) {
      assertThatThrownBy(() -> Money.fromEvent(JSON.readTree("{\"a\":" + amount + "}").get("a")))
          .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesAMissingAmount() {
      assertThatThrownBy(() -> Money.fromEvent(null)).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
