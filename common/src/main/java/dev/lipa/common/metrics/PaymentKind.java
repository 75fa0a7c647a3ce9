package dev.lipa.common.metrics;

import java.util.Locale;

/** The kinds of payment the platform counts ({@link PaymentMetrics}), each one tag value. */
public enum PaymentKind {

  STK_PUSH, BANK_COLLECTION, SEND_MONEY, TILL, PAYBILL;

  /** The tag value: {@code stk_push}, {@code send_money}, ... */
  public String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
