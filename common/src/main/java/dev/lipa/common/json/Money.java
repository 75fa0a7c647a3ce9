package dev.lipa.common.json;

import java.math.BigDecimal;

/** Money conventions: amounts are {@link BigDecimal}, never {@code double}. */
public final class Money {

  private Money() {
  }

  /** True when the amount has no fractional part (10 and 10.0 are whole; 10.5 is not). */
  public static boolean isWhole(BigDecimal amount) {
    return amount.signum() == 0 || amount.stripTrailingZeros().scale() <= 0;
  }

  /** The whole amount with scale 0, so that 10.0 and 1E+1 are stored and shown as 10. */
  public static BigDecimal whole(BigDecimal amount) {
    return amount.setScale(0, java.math.RoundingMode.UNNECESSARY);
  }
}
