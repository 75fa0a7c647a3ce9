package dev.lipa.checkout.session;

import dev.lipa.common.web.Codes;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Currencies a checkout session may be priced in, with the decimals each allows and the methods that can pay in it.
 * KSH is accepted as the collections API's spelling of KES and kept as the merchant wrote it.
 */
public enum CheckoutCurrency {

  /** Kenyan shilling: cents allowed for cards; M-Pesa takes whole shillings only. */
  KES(2, "KSH", EnumSet.of(PaymentMethod.CARD, PaymentMethod.MPESA_STK)),
  KSH(2, "KSH", EnumSet.of(PaymentMethod.CARD, PaymentMethod.MPESA_STK)),
  /** Tanzanian shilling: whole amounts, mobile money (Tigo or Airtel, picked by the customer's number). */
  TZS(0, "TZS", EnumSet.of(PaymentMethod.MPESA_STK)),
  /** Ugandan shilling: no minor unit, mobile money (Airtel Uganda). */
  UGX(0, "UGX", EnumSet.of(PaymentMethod.MPESA_STK)),
  /** US dollar: cards only. */
  USD(2, null, EnumSet.of(PaymentMethod.CARD));

  private final int decimals;
  private final String stkCurrencyCode;
  private final Set<PaymentMethod> methods;

  CheckoutCurrency(int decimals, String stkCurrencyCode, Set<PaymentMethod> methods) {
    this.decimals = decimals;
    this.stkCurrencyCode = stkCurrencyCode;
    this.methods = methods;
  }

  /** Digits allowed after the decimal point. */
  public int decimals() {
    return decimals;
  }

  public boolean supports(PaymentMethod method) {
    return methods.contains(method);
  }

  /** The currencyCode collections-service's STK push takes for this currency; null when there is no STK rail. */
  public String stkCurrencyCode() {
    return stkCurrencyCode;
  }

  /** Whether the amount has no more decimals than the currency allows (trailing zeros do not count). */
  public boolean allowsScaleOf(BigDecimal amount) {
    return Math.max(0, amount.stripTrailingZeros().scale()) <= decimals;
  }

  public String supportedMethods() {
    return methods.stream().map(Enum::name).collect(Collectors.joining(", "));
  }

  public static Optional<CheckoutCurrency> of(String code) {
    return Codes.of(CheckoutCurrency.class, Enum::name, code);
  }

  public static String codes() {
    return Codes.list(CheckoutCurrency.class, Enum::name, ", ");
  }
}
