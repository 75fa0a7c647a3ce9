package dev.lipa.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lipa.common.web.ValidationException;
import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

class JsonFieldsTests {

  private static final JsonMapper JSON = PlatformJson.builder().build();

  private static JsonFields fields(String body) {
    return JsonFields.of(JSON.readTree(body));
  }

  static Stream<Arguments> wholeAmounts() {
    return Stream.of(
        Arguments.of(Named.named("an integer", "{\"amount\":10}"), "10"),
        Arguments.of(Named.named("a whole decimal", "{\"amount\":10.0}"), "10"),
        Arguments.of(Named.named("an exponent", "{\"amount\":1E+2}"), "100"),
        Arguments.of(Named.named("the largest", "{\"amount\":999999999999999}"), "999999999999999"));
  }

  @ParameterizedTest
  @MethodSource("wholeAmounts")
  void acceptsWholeAmounts(String body, String expected) {
    JsonFields fields = fields(body);
    assertThat(fields.positiveAmount("amount", true, true)).isEqualTo(new BigDecimal(expected));
    assertThat(fields.errors().isEmpty()).isTrue();
  }

  static Stream<Arguments> refusedAmounts() {
    return Stream.of(
        Arguments.of(Named.named("fractional", "{\"amount\":10.5}"), "amount must be a whole number"),
        Arguments.of(Named.named("zero", "{\"amount\":0}"), "amount must be greater than 0"),
        Arguments.of(Named.named("negative", "{\"amount\":-1}"), "amount must be greater than 0"),
        Arguments.of(Named.named("a numeric string", "{\"amount\":\"10\"}"), "amount must be a number, not a string"),
        Arguments.of(Named.named("a boolean", "{\"amount\":true}"), "amount must be a number, not a boolean"),
        Arguments.of(Named.named("null", "{\"amount\":null}"), "amount is required"),
        Arguments.of(Named.named("missing", "{}"), "amount is required"),
        Arguments.of(Named.named("a huge integer", "{\"amount\":123456789012345678901234567890}"),
            "amount must be at most 999999999999999"),
        Arguments.of(Named.named("a hundred-million-digit exponent", "{\"amount\":1e100000000}"),
            "amount must be at most 999999999999999"),
        Arguments.of(Named.named("a tiny exponent", "{\"amount\":1e-100000000}"), "amount must be a whole number"),
        Arguments.of(Named.named("35 digits", "{\"amount\":12345678901234567890123456789012345}"),
            "amount must have at most 34 digits"),
        Arguments.of(Named.named("minus zero", "{\"amount\":-0}"), "amount must be greater than 0"),
        Arguments.of(Named.named("NaN as a string", "{\"amount\":\"NaN\"}"), "amount must be a number, not a string"),
        Arguments.of(Named.named("Infinity as a string", "{\"amount\":\"Infinity\"}"),
            "amount must be a number, not a string"));
  }

  @ParameterizedTest
  @MethodSource("refusedAmounts")
  void refusesAmounts(String body, String message) {
    JsonFields fields = fields(body);
    assertThat(fields.positiveAmount("amount", true, true)).isNull();
    assertThat(fields.errors().asMap()).containsEntry("amount", java.util.List.of(message));
  }

  @Test
  void refusesNonFiniteNumbersOfATreeBuiltByHand() {
    JsonFields fields = JsonFields.of(JSON.createObjectNode().put("amount", Double.NaN));
    assertThat(fields.positiveAmount("amount", true, false)).isNull();
    assertThat(fields.errors().asMap()).containsEntry("amount", java.util.List.of("amount must be a finite number"));
  }

  @Test
  void boundsFractionalAmountsByTheFieldsDecimalsAndMaximum() {
    assertThat(fields("{\"amount\":10.25}").positiveAmount("amount", true, 2, new BigDecimal("100")))
        .isEqualTo(new BigDecimal("10.25"));
    JsonFields fields = fields("{\"amount\":100.01}");
    assertThat(fields.positiveAmount("amount", true, 2, new BigDecimal("100"))).isNull();
    assertThat(fields.errors().asMap()).containsEntry("amount", java.util.List.of("amount must be at most 100"));
  }

  @Test
  void keepsFractionalAmountsExactWhenTheyAreAllowed() {
    assertThat(fields("{\"amount\":0.1}").positiveAmount("amount", true, false)).isEqualTo(new BigDecimal("0.1"));
  }

  @Test
  void refusesTextTooLongOrOfTheWrongTypeAndNamesEveryField() {
    JsonFields fields = fields("{\"a\":\"12345678901234\",\"b\":5,\"c\":\"  \"}");
    fields.text("a", true, 13);
    fields.text("b", true, 0);
    fields.text("c", true, 0);
    assertThat(fields.errors().asMap()).containsOnlyKeys("a", "b", "c");
    assertThat(fields.errors().asMap().get("a")).containsExactly("a must be at most 13 characters");
    assertThat(fields.errors().asMap().get("b")).containsExactly("b must be a string");
    assertThat(fields.errors().asMap().get("c")).containsExactly("c is required");
  }

  @Test
  void refusesABodyThatIsNotAnObject() {
    assertThatThrownBy(() -> fields("[1,2]")).isInstanceOf(ValidationException.class);
  }
}
