package dev.lipa.common.json;

import java.math.BigDecimal;
import java.math.RoundingMode;
import tools.jackson.databind.JsonNode;

/**
 * Money conventions: amounts are {@link BigDecimal}, never {@code double}, and every amount is bounded before any
 * arithmetic touches it.
 *
 * <p>A {@code BigDecimal} read from 11 characters such as {@code 1e100000000} is cheap to hold but expands to a hundred
 * million digits in {@code setScale}, {@code toPlainString} or an addition; {@code 100E2147483647} makes
 * {@code stripTrailingZeros} overflow. So {@link #refusal} decides from {@link BigDecimal#precision()} and
 * {@link BigDecimal#scale()} alone, in {@code long} arithmetic, and only an amount that passed it reaches the rest.
 */
public final class Money {

  /** The largest amount of any money field: 15 digits, exact in a Decimal128 and in a double (below 2^53). */
  public static final BigDecimal MAX = new BigDecimal("999999999999999");
  /** The most digits after the point any money field takes (cents); whole-number fields take none. */
  public static final int MAX_DECIMALS = 2;
  /** Digits an amount may be written with, trailing zeros included: what a Decimal128 holds exactly. */
  public static final int MAX_DIGITS = 34;

  private static final int MAX_INTEGER_DIGITS = MAX.precision() - MAX.scale();

  private Money() {
  }

  /**
   * Why an amount is refused, or null when it is within bounds: written with at most {@value #MAX_DIGITS} digits, at
   * most {@code decimals} digits after the point (trailing zeros do not count: 10.00 is whole), greater than 0 and at
   * most {@code max}. Never expands the amount, whatever its exponent.
   *
   * @param max at most {@link #MAX}
   */
  public static String refusal(String field, BigDecimal amount, int decimals, BigDecimal max) {
    if (max.compareTo(MAX) > 0 || decimals < 0 || decimals > MAX_DECIMALS) {
      throw new IllegalArgumentException("a money field is bounded by at most " + MAX + " and " + MAX_DECIMALS
          + " decimals");
    }
    long precision = amount.precision();
    long scale = amount.scale();
    if (precision > MAX_DIGITS) {
      return field + " must have at most " + MAX_DIGITS + " digits";
    }
    if (decimalsOf(amount, precision, scale) > decimals) {
      return decimals == 0 ? field + " must be a whole number"
          : field + " must have at most " + decimals + " decimals";
    }
    if (amount.signum() <= 0) {
      return field + " must be greater than 0";
    }
    // the amount is below 10^(precision - scale): more integer digits than MAX has is above every maximum
    if (precision - scale > MAX_INTEGER_DIGITS || amount.compareTo(max) > 0) {
      return field + " must be at most " + max.toPlainString();
    }
    return null;
  }

  /** True when the amount has no fractional part (10 and 10.0 are whole; 10.5 is not); never expands it. */
  public static boolean isWhole(BigDecimal amount) {
    return decimalsOf(amount, amount.precision(), amount.scale()) == 0;
  }

  /**
   * The whole amount with scale 0, so that 10.0 and 1E+1 are stored and shown as 10. Only for an amount within bounds
   * ({@link #refusal}); anything with more than {@value #MAX_DIGITS} integer digits is refused here rather than expanded.
   */
  public static BigDecimal whole(BigDecimal amount) {
    if ((long) amount.precision() - amount.scale() > MAX_DIGITS) {
      throw new IllegalArgumentException("amount out of bounds");
    }
    return amount.setScale(0, RoundingMode.UNNECESSARY);
  }

  /**
   * An amount from one of the platform's events ({@code data.amount}): a JSON number or a decimal string, within the
   * bounds of every money field (above 0, at most {@link #MAX}, at most {@value #MAX_DECIMALS} decimals). A listener
   * refuses anything else as it refuses an unreadable record.
   *
   * @throws IllegalArgumentException saying why the amount is refused
   */
  public static BigDecimal fromEvent(JsonNode node) {
    BigDecimal amount;
    if (node != null && node.isNumber() && isFinite(node)) {
      amount = node.decimalValue();
    } else if (node != null && node.isString() && node.stringValue().length() <= JsonLimits.MAX_NUMBER_LENGTH) {
      try {
        amount = new BigDecimal(node.stringValue().strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("amount is not a decimal number");
      }
    } else {
      throw new IllegalArgumentException("amount is not a decimal number");
    }
    String refusal = refusal("amount", amount, MAX_DECIMALS, MAX);
    if (refusal != null) {
      throw new IllegalArgumentException(refusal);
    }
    return amount;
  }

  /** False for NaN and the infinities, which only a double can hold (the platform's mapper never makes one). */
  static boolean isFinite(JsonNode number) {
    return !(number.isDouble() || number.isFloat()) || Double.isFinite(number.doubleValue());
  }

  /**
   * Digits after the point once trailing zeros are dropped. The unscaled value has at most {@code precision - 1}
   * trailing zeros, so a scale beyond that is fine digits for certain; below it, stripping works on at most
   * {@code precision} digits and cannot overflow the scale.
   */
  private static long decimalsOf(BigDecimal amount, long precision, long scale) {
    if (scale <= 0 || amount.signum() == 0) {
      return 0;
    }
    if (scale - (precision - 1) > MAX_DECIMALS) {
      return scale - (precision - 1);
    }
    return Math.max(0, amount.stripTrailingZeros().scale());
  }
}
