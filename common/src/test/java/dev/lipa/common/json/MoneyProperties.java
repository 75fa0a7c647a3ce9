package dev.lipa.common.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Properties of the amount rule over any {@link BigDecimal} (any digits, any exponent an {@code int} holds): an amount
 * is either accepted and within bounds, or refused with a field message; nothing else ever happens.
 */
class MoneyProperties {

  private static final JsonMapper JSON = PlatformJson.builder().build();

  @Provide
  Arbitrary<BigDecimal> anyDecimal() {
    Arbitrary<BigInteger> unscaled = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(40)
        .map(BigInteger::new).flatMap(n -> Arbitraries.of(n, n.negate()));
    Arbitrary<Integer> scale = Arbitraries.oneOf(Arbitraries.integers().between(-20, 20),
        Arbitraries.integers().between(Integer.MIN_VALUE + 1, Integer.MAX_VALUE));
    return Combinators.combine(unscaled, scale).as(BigDecimal::new);
  }

  @Property(tries = 2000)
  boolean everyAmountIsAcceptedWithinBoundsOrRefusedWithAFieldMessage(@ForAll("anyDecimal") BigDecimal amount,
      @ForAll @IntRange(min = 0, max = 2) int decimals) {
    String refusal = Money.refusal("amount", amount, decimals, Money.MAX);
    if (refusal != null) {
      return refusal.startsWith("amount ");
    }
    return amount.signum() > 0 && amount.compareTo(Money.MAX) <= 0
        && Math.max(0, amount.stripTrailingZeros().scale()) <= decimals;
  }

  @Property(tries = 2000)
  void aWholeFieldNeverRoundsSilently(@ForAll("anyDecimal") BigDecimal amount) {
    JsonFields fields = read("{\"amount\":" + amount + "}");
    if (fields == null) {
      return;
    }
    BigDecimal read = fields.positiveAmount("amount", true, true);
    if (read == null) {
      assertThat(fields.errors().asMap()).containsOnlyKeys("amount");
    } else {
      assertThat(read).isEqualByComparingTo(amount);
      assertThat(read.scale()).isZero();
    }
  }

  @Property(tries = 1000)
  void aJsonNumberIsAFieldErrorOrAnAmountNeverAnException(@ForAll("anyDecimal") BigDecimal amount,
      @ForAll boolean wholeOnly) {
    // written as a client could write it: scientific notation, which is what reaches the parser in an attack
    JsonFields fields = read("{\"amount\":" + amount.unscaledValue() + "E" + -(long) amount.scale() + "}");
    if (fields == null) {
      return;
    }
    BigDecimal read = fields.positiveAmount("amount", true, wholeOnly);
    assertThat(read == null).isEqualTo(fields.errors().has("amount"));
  }

  /** The body's fields; null when the number cannot even be read, which must then be an error naming the field. */
  private static JsonFields read(String body) {
    try {
      return JsonFields.of(JSON.readTree(body));
    } catch (JacksonException e) {
      assertThat(UnreadableJson.of(e)).map(UnreadableJson::field).contains("amount");
      return null;
    }
  }
}
